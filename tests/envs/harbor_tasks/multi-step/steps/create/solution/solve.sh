#!/bin/bash
echo first > notes.txt
