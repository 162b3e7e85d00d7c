#!/usr/bin/env python3
"""Validate /work/blind/redact-f/notes.jsonl (+ notes_meta.jsonl): offsets, overlaps, completeness,
Luhn for cards, non-Luhn for 13+ digit bank accounts, IC birth dates/state codes; print counts."""
import json, re, sys, collections, datetime as dt
import os
HERE=os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0,os.path.join(HERE,'gen'))
from build import validate
from lib import luhn_ok, STATES
P=HERE+'/'
notes=[json.loads(l) for l in open(P+'notes.jsonl')]
metas={m['id']:m for m in (json.loads(l) for l in open(P+'notes_meta.jsonl'))}
TYPES={'PERSON','MY_IC','MRN','PASSPORT','PHONE','EMAIL','CARD_NUMBER','BANK_ACCOUNT'}
KINDS={'AGE','VITAL','DOSAGE','DRUG','LAB','ICD10','ICD10_PCS','DRG','WARD_BED','EPONYM','HOSPITAL','PLACE','DATE','TIME','QUANTITY','POSTOP','ROLE','OBSTETRIC','ECG','ORG'}
ROLES={'patient','relative','doctor','nurse','other','institution'}
errors=0; et=collections.Counter(); ck=collections.Counter(); roles=collections.Counter(); trad=collections.Counter(); nt=collections.Counter()
typerole=collections.Counter(); ic_styles=collections.Counter(); lens=[]
for x in notes:
    t=x['text']; m=metas[x['id']]; lens.append(len(t)); nt[m['note_type']]+=1
    errs=validate(t,x['entities'],x['clinical_spans'])
    if m['chars']!=len(t) or m['n_entities']!=len(x['entities']) or m['n_clinical']!=len(x['clinical_spans']): errs.append('meta counts')
    info={(i['start'],i['end']):i for i in m['entity_info']}
    if len(info)!=len(x['entities']): errs.append('meta entity_info size')
    for e in x['entities']:
        if e['type'] not in TYPES: errs.append('type '+e['type'])
        i=info.get((e['start'],e['end']))
        if not i or i['role'] not in ROLES: errs.append('role'); continue
        et[e['type']]+=1; roles[i['role']]+=1; typerole[(e['type'],i['role'])]+=1
        if e['type']=='PERSON': trad[i['tradition']]+=1
        d=re.sub(r'\D','',e['text'])
        if e['type']=='CARD_NUMBER' and not (13<=len(d)<=19 and luhn_ok(d)): errs.append('card luhn '+e['text'])
        if e['type']=='BANK_ACCOUNT' and (not 10<=len(d)<=16 or (len(d)>=13 and luhn_ok(d))): errs.append('bank '+e['text'])
        if e['type']=='MY_IC':
            raw=e['text']
            if re.fullmatch(r'[A-Z] ?\d{6,7}',raw): ic_styles['old-style']+=1; continue
            if not re.fullmatch(r'[\d\- .\n]+',raw): ic_styles['OCR-noisy']+=1; continue
            ic_styles['12-digit dashes' if '-' in raw else ('12-digit plain' if raw.isdigit() else '12-digit spaced/other')]+=1
            if len(d)!=12: errs.append('ic len '+raw); continue
            yy,mm,dd=int(d[:2]),int(d[2:4]),int(d[4:6])
            ok=False
            for c in (1900,2000):
                try: dt.date(c+yy,mm,dd); ok=True
                except ValueError: pass
            if not ok or d[6:8] not in STATES: errs.append('ic invalid '+raw)
    for c in x['clinical_spans']:
        if c['kind'] not in KINDS: errs.append('kind '+c['kind'])
        ck[c['kind']]+=1
    if errs: errors+=1; print(x['id'],errs[:5])
print(f"notes={len(notes)} chars total={sum(lens)} min={min(lens)} median={sorted(lens)[len(lens)//2]} max={max(lens)} notes>=5000={sum(l>=5000 for l in lens)}")
print(f"notes with validation errors: {errors}")
print(f"PHI entities total={sum(et.values())}"); [print(f"  {k:13s} {v}") for k,v in et.most_common()]
print("PHI by role:"); [print(f"  {k:11s} {v}") for k,v in roles.most_common()]
print("type x role:"); [print(f"  {k[0]:13s} {k[1]:11s} {v}") for k,v in sorted(typerole.items())]
print("PERSON by tradition:"); [print(f"  {str(k):22s} {v}") for k,v in trad.most_common()]
print("MY_IC surface forms:", dict(ic_styles))
print(f"clinical spans total={sum(ck.values())}"); [print(f"  {k:10s} {v}") for k,v in ck.most_common()]
print("note types:"); [print(f"  {k:24s} {v}") for k,v in sorted(nt.items())]
