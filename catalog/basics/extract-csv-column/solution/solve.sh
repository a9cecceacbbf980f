#!/bin/bash
cut -d, -f2 /app/data.csv > /app/col.txt
