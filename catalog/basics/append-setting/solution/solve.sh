#!/bin/bash
printf 'DEBUG=1\n' >> /app/settings.env
