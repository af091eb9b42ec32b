#!/usr/bin/env node
'use strict';
require('../dist/cli/alertmanager-main.js').main(process.argv.slice(2));
