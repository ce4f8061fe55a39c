// Runs first in every npm script, on whatever Node started it, so an unsupported
// Node gets one sentence instead of a stack trace. `npm ci` installs the project's
// own Node 24 (the `node` dev dependency) and npm scripts run it, so this only
// speaks when that install was skipped or a script is started by hand.
"use strict";
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(
    `OfferAtlas needs Node.js 22.22 or newer, and this is ${process.version}: run \`npm ci\` (it installs the project's own Node 24) and start it with \`npm start\`, or use Node 24 (see .nvmrc).`,
  );
  process.exit(1);
}
