#!/bin/bash
cat extra.txt >> notes.txt
