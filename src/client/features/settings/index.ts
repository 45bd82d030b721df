// The public entry of the settings feature: other features import only what is exported here (decision 054).
export * from "./api/settings-api";
