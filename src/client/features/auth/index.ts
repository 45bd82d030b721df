// The public entry of the auth feature: other features import only what is exported here (decision 054).
export * from "./api/auth-api";
export * from "./components/council-fields";
