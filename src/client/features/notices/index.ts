// The public entry of the notices feature: other features import only what is exported here (decision 054).
export * from "./api/notices-api";
export * from "./components/notice-bell";
export * from "./components/unread-badge";
