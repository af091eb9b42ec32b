#!/usr/bin/env node
'use strict';
require('../dist/cli/amtool-main.js').main(process.argv.slice(2));
