// The public entry of the certificates feature: other features import only what is exported here (decision 054).
export * from "./api/certificates-api";
export * from "./components/certificate-expiry-notice";
