#!/bin/bash
if [ "$(redis-cli -h redis get greeting)" = hello ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
