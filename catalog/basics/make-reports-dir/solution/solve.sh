#!/bin/bash
mkdir -p /app/reports
