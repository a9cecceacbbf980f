#!/bin/bash
if cmp -s /app/seed.txt /app/copy.txt; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
