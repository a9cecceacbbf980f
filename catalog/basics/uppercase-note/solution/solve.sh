#!/bin/bash
tr a-z A-Z < /app/note.txt > /app/NOTE.txt
