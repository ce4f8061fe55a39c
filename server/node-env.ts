// Imported first by the process entries: React and React Router choose their
// development or production build from process.env.NODE_ENV when they are
// first loaded, so it must be set before anything imports them. Unset means
// production, as in server/config.ts (`--dev` means development).
process.env.NODE_ENV ??= process.argv.includes("--dev") ? "development" : "production";
