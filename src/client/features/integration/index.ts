// The public entry of the integration feature: other features import only what is exported here (decision 054).
export * from "./api/feegow-api";
export * from "./api/feegow-uploads-api";
export * from "./components/feegow-document-card";
export * from "./components/feegow-patient-search";
export * from "./components/feegow-upload-status";
export * from "./lib/use-feegow-row-actions";
export * from "./lib/use-feegow-send";
