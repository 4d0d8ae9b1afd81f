// Where the running Node's own headers are installed (its prefix, holding include/node/node_api.h),
// or null: node-gyp builds against them instead of downloading a headers tarball (no network).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function installedNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return fs.existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
}

module.exports = { installedNodeDir };
