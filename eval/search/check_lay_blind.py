#!/usr/bin/env python3
"""Validate every code in lay_blind.jsonl against CMS FY2026 ICD-10-CM/PCS order files
(billable flag) and report OMOP-sample presence."""
import json,zipfile,io,csv,collections,sys
import os
HERE=os.path.dirname(os.path.abspath(__file__))
DATA=os.environ.get('CODING_DATA_DIR', os.path.join(HERE,'..','..','..','shared','data'))
def order(zpath,member):
    d={}
    with zipfile.ZipFile(zpath) as z:
        for line in io.TextIOWrapper(z.open(member),encoding='latin-1'):
            d[line[6:13].strip()]=(line[14],line[77:].strip())
    return d
CM=order(f'{DATA}/icd10cm-pcs/cms_2026_dx.zip','icd10cm_order_2026.txt')
PCS=order(f'{DATA}/icd10cm-pcs/cms_2026_pr.zip','icd10pcs_order_2026.txt')
omop=collections.defaultdict(set)
with open(f'{DATA}/omop-samples/phenotype_library_concepts.tsv') as f:
    for r in csv.DictReader(f,delimiter='\t'): omop[r['vocabulary_id']].add(r['concept_code'].replace('.',''))
with open(f'{DATA}/omop-samples/synthea27nj/CONCEPT.csv') as f:
    for r in csv.DictReader(f): omop[r['vocabulary_id']].add(r['concept_code'].replace('.',''))
path=sys.argv[1] if len(sys.argv)>1 else os.path.join(HERE,'lay_blind.jsonl')
n=bad=0; codes=0; qids=set(); best_in_omop=0; byvoc=collections.Counter()
for line in open(path):
    q=json.loads(line); n+=1
    assert q['qid'] not in qids; qids.add(q['qid'])
    assert q['source']=='blind' and q['category']=='lay' and len(q['vocabularies'])==1
    voc=q['vocabularies'][0]; byvoc[voc]+=1
    D=CM if voc=='ICD10CM' else PCS
    keys={f"{r['vocabulary_id']}:{r['concept_code']}" for r in q['relevant']}
    assert keys==set(q['grade']), q['qid']
    for b in q['best']:
        assert q['grade'].get(f'{voc}:{b}')==3, (q['qid'],b)
    for r in q['relevant']:
        codes+=1
        c=r['concept_code'].replace('.','')
        if r['vocabulary_id']!=voc or c not in D or D[c][0]!='1':
            bad+=1; print('INVALID',q['qid'],r)
    if all(b.replace('.','') in omop[voc] for b in q['best']): best_in_omop+=1
print(f'queries={n} {dict(byvoc)} codes_checked={codes} invalid={bad}')
print(f'queries whose best codes are all present in the OMOP sample concept tables: {best_in_omop}/{n}')
