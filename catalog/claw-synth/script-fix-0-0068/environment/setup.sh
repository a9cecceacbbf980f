#!/bin/bash
chmod +x /app/tools/usage_by_ext.sh
