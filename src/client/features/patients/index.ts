// The public entry of the patients feature: other features import only what is exported here (decision 054).
export * from "./api/patients-api";
export * from "./lib/dates";
export * from "./lib/use-go-back";
