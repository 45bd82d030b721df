// The public entry of the content feature: other features import only what is exported here (decision 054).
export * from "./api/content-api";
export * from "./lib/labels";
