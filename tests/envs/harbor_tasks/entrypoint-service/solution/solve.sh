#!/bin/bash
python3 -c "import urllib.request; open('/app/answer.txt', 'wb').write(urllib.request.urlopen('http://api.internal:8080/answer.txt').read())"
