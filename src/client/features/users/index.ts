// The public entry of the users feature: other features import only what is exported here (decision 054).
export * from "./api/users-api";
