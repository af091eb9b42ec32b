#!/usr/bin/env node
'use strict';
const { join } = require('node:path');
const { loadBundle } = require('../dist/build/load-bundle.js');
loadBundle(join(__dirname, '..', 'dist', 'bundle', 'amtool-main.js')).main(process.argv.slice(2));
