#!/bin/bash
cp seed.txt copy.txt
