#!/bin/bash
exec forge-browser-replay "$(dirname "$0")/actions.json"
