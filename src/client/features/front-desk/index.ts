// The public entry of the front-desk feature: other features import only what is exported here (decision 054).
export * from "./components/hand-over-dialog";
