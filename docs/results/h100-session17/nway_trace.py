import json, sys, collections
d = json.load(open(sys.argv[1]))
ev = d['traceEvents'] if isinstance(d, dict) else d
pname, tname = {}, {}
for e in ev:
    if e.get('ph') == 'M' and e['name'] == 'process_name': pname[e['pid']] = e['args']['name']
    if e.get('ph') == 'M' and e['name'] == 'thread_name': tname[(e['pid'], e['tid'])] = e['args']['name']
spans = [e for e in ev if e.get('ph') == 'X']
spans.sort(key=lambda e: e['ts'])
launches = [e for e in spans if tname.get((e['pid'], e['tid']), '').startswith('queue') or e.get('cat') == 'launch']
t0 = spans[0]['ts']
last = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9
for e in spans:
    if e['ts'] - t0 > last: break
    print('%9.3f %8.3f  slot%-2s %-28s %s %s' % ((e['ts'] - t0) / 1e3, e.get('dur', 0) / 1e3, e['pid'] - 1, tname.get((e['pid'], e['tid']), '?')[:28], e['name'][:50], {k: v for k, v in e.get('args', {}).items() if k in ('work_groups', 'bytes', 'shares')}))
