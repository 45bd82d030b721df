// The public entry of the live feature: other features import only what is exported here (decision 054).
export * from "./use-live-updates";
