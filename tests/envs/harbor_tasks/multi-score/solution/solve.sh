#!/bin/bash
printf '# Report\n\nAll good.\n' > /app/report.md
