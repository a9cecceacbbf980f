#!/bin/bash
chmod +x /app/tools/diskreport.sh
