// The public entry of the documents feature: other features import only what is exported here (decision 054).
export * from "./api/documents-api";
export * from "./api/signing-api";
export * from "./components/document-status-badge";
export * from "./lib/format";
export * from "./lib/patient-edit-link";
