#!/bin/bash
cp /app/config.ini /app/config.ini.bak
