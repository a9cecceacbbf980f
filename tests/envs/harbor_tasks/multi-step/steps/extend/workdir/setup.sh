#!/bin/bash
echo second > extra.txt
