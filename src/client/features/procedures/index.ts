// The public entry of the procedures feature: other features import only what is exported here (decision 054).
export * from "./api/procedures-api";
export * from "./components/association-checklist";
export * from "./components/confirm-delete-button";
export * from "./components/search-box";
