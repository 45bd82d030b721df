// The app's code runs compiled in the integration projects (decision 039): stack traces of its
// errors still point at the TypeScript lines.
process.setSourceMapsEnabled(true);
