#!/usr/bin/env python3
"""Build the blind redaction corpus. Fixed seed; resamples any note that fails validation."""
import json, random, re, sys, collections, os
sys.path.insert(0, os.path.dirname(__file__))
import templates as T
SEED=20251126
import os
OUT=os.path.join(os.path.dirname(os.path.abspath(__file__)),'..')
CONNECT={'bin','binti','b.','bt.','bte','a/l','a/p','s/o','d/o','anak','ak','b','bt','md.'}
# multi-token names used in the dev corpus (only to AVOID reusing them)
DEV_NAMES=set()
try:
    for l in open(os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','..','..','..','..','shared','eval','phi','dev.jsonl')):
        for e in json.loads(l)['entities']:
            if e['type']=='PERSON' and ' ' in e['text']: DEV_NAMES.add(e['text'].lower())
except FileNotFoundError: pass

def bounded(text,s):
    return [m.start() for m in re.finditer(r'(?<![A-Za-z0-9])'+re.escape(s)+r'(?![A-Za-z0-9])',text)]
def validate(text,ents,clin):
    errs=[]
    spans=sorted([(e['start'],e['end'],'P') for e in ents]+[(c['start'],c['end'],'C') for c in clin])
    for a,b in zip(spans,spans[1:]):
        if b[0]<a[1]: errs.append(f'overlap {a} {b}')
    for x in ents+clin:
        if text[x['start']:x['end']]!=x['text']: errs.append('offset')
        if x['text']!=x['text'].strip(): errs.append('ws')
    # completeness: every occurrence of every PHI string lies inside a gold PHI span
    for e in ents:
        for st in bounded(text,e['text']):
            en=st+len(e['text'])
            if not any(g['start']<=st and en<=g['end'] for g in ents): errs.append(f"unannotated PHI occurrence {e['text']!r}")
    # name tokens must not occur inside clinical spans
    for e in ents:
        if e['type']!='PERSON': continue
        if e['text'].lower() in DEV_NAMES: errs.append('dev name reuse '+e['text'])
        for tok in re.split(r'[\s^]+',e['text']):
            if tok.lower() in CONNECT or len(tok)<3: continue
            for c in clin:
                if re.search(r'(?<![A-Za-z])'+re.escape(tok)+r'(?![A-Za-z])',c['text'],re.I): errs.append(f'name token {tok!r} in clinical {c["text"]!r}')
    return errs

def main():
    R=random.Random(SEED)
    plan=[]
    for fn,k in T.TEMPLATES: plan+= [fn]*k
    R.shuffle(plan)
    notes=[];metas=[];fails=collections.Counter()
    for i,fn in enumerate(plan):
        for attempt in range(1,200):
            sub=random.Random(f"{SEED}-{i}-{attempt}")
            n,ntype=fn(sub); text=n.text()
            ents=sorted(n.ents,key=lambda e:e['start']); clin=sorted(n.clin,key=lambda c:c['start'])
            errs=validate(text,ents,clin)
            if not errs: break
            fails[errs[0].split(' ')[0]+' '+errs[0].split(' ')[1]]+=1
        else: raise SystemExit(f'cannot build {fn.__name__}')
        nid=f"blindf-{i+1:04d}"
        notes.append({"id":nid,"text":text,"entities":ents,"clinical_spans":clin})
        info=sorted(n.info,key=lambda x:x['start'])
        metas.append({"id":nid,"note_type":ntype,"template":"blindf_"+fn.__name__,"chars":len(text),"n_entities":len(ents),"n_clinical":len(clin),"attempts":attempt,
                      "entity_info":[{"role":x['role'],"tradition":x['tradition'],"start":x['start'],"end":x['end']} for x in info]})
    with open(f'{OUT}/notes.jsonl','w') as f:
        for x in notes: f.write(json.dumps(x,ensure_ascii=False)+'\n')
    with open(f'{OUT}/notes_meta.jsonl','w') as f:
        for x in metas: f.write(json.dumps(x,ensure_ascii=False)+'\n')
    print('notes',len(notes),'resample reasons',dict(fails))
if __name__=='__main__': main()
