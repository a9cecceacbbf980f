#!/bin/bash
redis-cli -h redis set greeting hello
