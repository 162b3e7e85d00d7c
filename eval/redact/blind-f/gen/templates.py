import random, datetime as dt
from lib import *

def D(R,base=None,span=400):
    base=base or dt.date(2025,1,1); return base-dt.timedelta(days=R.randint(0,span))
def mk_pt(R,ref,trad=None,sex=None,age=None,role='patient'):
    p=person(R,role,trad,sex,age,ref); return p
def ic_of(R,p,style=None):
    if p.ic is None: p.born,p.ic=ic_digits(R,p)
    return fmt_ic(R,p.ic,style)
def drt(R): return R.choice(['Dr.','Dr','Dr ','DR.'])
def title_dr(n,R,d,form=None):
    t=drt(R); n.t(t if t.endswith(' ') else t+' '); n.name(d,form or R.choice(['full','full','short']))

# 1. discharge letter to GP with letterhead
def discharge_letter(R):
    ref=D(R); h,ab=R.choice(HOSPITALS); pt=mk_pt(R,ref); dr=person(R,'doctor'); mo=person(R,'doctor'); gp=person(R,'doctor')
    n=Note(); n.c(h.upper(),'HOSPITAL'); n.t("\nJabatan Perubatan / Department of Medicine\n")
    n.t(address(R)+"\nTel: "); n.p(phone(R,'land'),'PHONE','institution'); n.t("   Faks: "); n.p(phone(R,'land'),'PHONE','institution')
    n.t("\n\n"+R.choice(["Ruj. Kami: ","Our ref: "])); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t("\nTarikh: "); n.c(fdate(R,ref),'DATE')
    n.t("\n\nTo: "); title_dr(n,R,gp,'full'); n.t("\n"+R.choice(GP)+"\n\nDear "); n.t("Dr. "); n.name(gp,'short')
    n.t(",\n\nRE: "); n.name(pt,'caps'); n.t(" (IC: "); n.p(ic_of(R,pt),'MY_IC','patient'); n.t(") - ")
    n.c(fage(R,pt.age,pt.sex),'AGE'); n.t("\n\nThank you for seeing the above patient who was admitted to ")
    n.c(ward_bed(R),'WARD_BED'); n.t(" from "); n.c(fdate(R,ref-dt.timedelta(days=6),'s2'),'DATE'); n.t(" to "); n.c(fdate(R,ref,'s2'),'DATE')
    code,dx=R.choice(ICD); n.t(f".\n\nDiagnosis: {dx} ("); n.c(code,'ICD10'); n.t(")\nComorbid: T2DM, HPT, dyslipidaemia\n\nOn admission: ")
    n.c(vital(R),'VITAL'); n.t(", "); n.c(vital(R),'VITAL'); n.t(", "); n.c(vital(R),'VITAL'); n.t(".\nInvestigations: ")
    for i in range(4): n.c(lab(R),'LAB'); n.t(", " if i<3 else ".\n")
    n.t("Background of "); n.c(R.choice(EPONYMS),'EPONYM'); n.t(" noted. Allergy: "); n.c(drug(R),'DRUG'); n.t(" (rash).\n\nMedications on discharge:\n")
    for i in range(R.randint(3,5)): n.t(f"{i+1}. "); n.c(dosage(R),'DOSAGE'); n.t("\n")
    n.t("\nKindly review in "); n.c(R.choice(["2/52","1/12","4/52","3/12"]),'QUANTITY'); n.t(" at your clinic. Family contact: ")
    rel=relative_of(R,pt); n.name(rel,'full'); n.t(f" ({R.choice(['wife','husband','son','daughter','anak'])}) "); n.p(phone(R),'PHONE','relative',rel.trad)
    n.t(".\n\nThank you.\n\nYours sincerely,\n\n"); n.t("("); n.name(mo,'caps'); n.t(")\nMedical Officer\n"); n.t("on behalf of "); title_dr(n,R,dr,'full'); n.t(", Consultant Physician\n")
    n.t("cc: "); n.p(email(R,dr,'moh.gov.my'),'EMAIL','doctor',dr.trad); n.t("\n")
    return n,'discharge_letter_gp'

# 2. operation note
def operation_note(R):
    ref=D(R); h,ab=R.choice(HOSPITALS); pt=mk_pt(R,ref); sur=person(R,'doctor'); ass=person(R,'doctor'); an=person(R,'doctor'); sc=person(R,'nurse')
    code,proc=R.choice(PCS)
    n=Note(); n.t("OPERATION NOTE\n"); n.c(h,'HOSPITAL'); n.t(" - OT "); n.t(str(R.randint(1,8)))
    n.t("\nName: "); n.name(pt,'caps'); n.t("   RN: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t("\nK/P: "); n.p(ic_of(R,pt),'MY_IC','patient')
    n.t("   Age: "); n.c(fage(R,pt.age,pt.sex),'AGE'); n.t("\nDate: "); n.c(fdate(R,ref),'DATE'); n.t("  Start: "); n.c(ftime(R),'TIME'); n.t("  End: "); n.c(ftime(R),'TIME')
    n.t("\n\nSurgeon: "); title_dr(n,R,sur,'full'); n.t("\nAssistant: "); title_dr(n,R,ass); n.t("\nAnaesthetist: "); title_dr(n,R,an); n.t(" (GA/ETT)\nScrub nurse: SN "); n.name(sc,R.choice(['short','full']))
    n.t(f"\n\nProcedure: {proc} ["); n.c(code,'ICD10_PCS'); n.t("]\n\nFindings:\n- ")
    n.t(R.choice(["inflamed appendix with faecolith, no perforation","distended gallbladder with multiple stones","adhesions at ","clear fluid in "]))
    n.t("\n- "); n.c(R.choice(EPONYMS),'EPONYM'); n.t(" noted\n\nProcedure:\n1. Patient in supine position, under GA.\n2. Cleaning and draping done.\n3. ")
    n.c(R.choice(["Pfannenstiel incision","Kocher incision","Lanz incision","midline laparotomy incision"]) if R.random()<0.5 else R.choice(EPONYMS),'EPONYM')
    n.t(" made.\n4. Haemostasis secured. EBL "); n.c(f"{R.randint(50,900)} ml",'QUANTITY'); n.t(".\n5. Wound closed in layers.\n\nPost-op orders:\n- "); n.c(vital(R),'VITAL')
    n.t(" monitoring hourly\n- "); n.c(dosage(R),'DOSAGE'); n.t("\n- "); n.c(dosage(R),'DOSAGE'); n.t("\n- review "); n.c(R.choice(["POD 1","POD#2","day 1 post-op"]),'POSTOP')
    n.t("\n\nSigned: "); n.name(sur,R.choice(['short','caps'])); n.t(" ("); n.p(phone(R,'mob'),'PHONE','doctor',sur.trad); n.t(")\n")
    return n,'operation_note'

# 3. radiology report
def radiology(R):
    ref=D(R); h,ab=R.choice(HOSPITALS); pt=mk_pt(R,ref); rad=person(R,'doctor'); req=person(R,'doctor')
    n=Note(); n.t("JABATAN RADIOLOGI, "); n.c(h.upper(),'HOSPITAL'); n.t("\nPatient: "); n.name(pt,'full'); n.t("\nMRN: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient')
    n.t("   NRIC: "); n.p(ic_of(R,pt),'MY_IC','patient'); n.t("\nDOB: "); n.c(fdate(R,ref-dt.timedelta(days=int(pt.age*365.25)),'s2'),'DATE'); n.t("  Sex: "+pt.sex)
    n.t("\nRequested by: "); title_dr(n,R,req); n.t(" ("); n.c(ward_bed(R),'WARD_BED'); n.t(")\nExam: "+R.choice(["CT abdomen & pelvis (contrast)","CT brain plain","US HBS","MRI lumbosacral spine","CXR PA erect","CT pulmonary angiogram"]))
    n.t("\nDate: "); n.c(fdate(R,ref),'DATE'); n.t(" "); n.c(ftime(R),'TIME')
    n.t("\n\nClinical: "); n.c(fage(R,pt.age,pt.sex),'AGE'); n.t(" with "+R.choice(["RIF pain","fever and jaundice","fall, GCS drop","back pain radiating to leg","haemoptysis"])+".\n\nFindings:\n")
    n.t("Liver measures "); n.c(f"{R.randint(120,190)} mm",'QUANTITY'); n.t(". No focal lesion. Free fluid in "); n.c(R.choice(["Morison's pouch","the pouch of Douglas"]),'EPONYM')
    n.t(".\nA hypodense lesion measuring "); n.c(f"{R.randint(8,60)} x {R.randint(8,60)} mm",'QUANTITY'); n.t(" (density "); n.c(f"{R.randint(10,60)} HU",'QUANTITY'); n.t(").\n")
    n.t("\nImpression:\n1. "+R.choice(["Acute appendicitis without perforation.","Cholelithiasis with CBD dilatation.","L4/L5 disc protrusion.","No acute intracranial bleed.","Segmental PE right lower lobe."]))
    n.t("\n\nReported by: "); title_dr(n,R,rad,'full'); n.t(", Radiologist\nVerified electronically. Queries: "); n.p(phone(R,'land',ext=True),'PHONE','institution'); n.t("\n")
    return n,'radiology_report'

# 4. histopathology
def histopath(R):
    ref=D(R); h,ab=R.choice(HOSPITALS); pt=mk_pt(R,ref); pat=person(R,'doctor'); sur=person(R,'doctor')
    n=Note(); n.t("HISTOPATHOLOGY REPORT\nJabatan Patologi, "); n.c(h,'HOSPITAL'); n.t("\n\nNama: "); n.name(pt,'caps'); n.t("\nNo. K/P: "); n.p(ic_of(R,pt),'MY_IC','patient')
    n.t("\nNo. Pendaftaran: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t("\nUmur: "); n.c(fage(R,pt.age,pt.sex),'AGE')
    n.t("\nClinician: "); title_dr(n,R,sur); n.t("\nReceived: "); n.c(fdate(R,ref-dt.timedelta(days=5)),'DATE'); n.t("   Reported: "); n.c(fdate(R,ref),'DATE')
    spec=R.choice(["Left breast, wide local excision","Prostate core biopsies x12","Appendix","Gallbladder","Colon, sigmoid (anterior resection)","Skin, left forearm, excision","Cervical lymph node"])
    n.t(f"\n\nSpecimen: {spec}\n\nMacroscopy: Received in formalin, a tissue measuring "); n.c(f"{R.randint(10,90)} x {R.randint(10,60)} x {R.randint(5,40)} mm",'QUANTITY')
    n.t(".\n\nMicroscopy: Sections show "); e=R.choice(["Gleason score 3+4","Bloom-Richardson grade 2","Breslow thickness","Hodgkin lymphoma","Crohn's disease","Barrett's oesophagus"]); n.c(e,'EPONYM')
    n.t(R.choice([" pattern. Margins are clear."," features. Resection margins free."," noted. Nil lymphovascular invasion."]))
    n.t("\nKi-67 "); n.c(f"{R.randint(5,60)}%",'LAB'); n.t(". ER positive (Allred 7/8).\n\nDiagnosis: "+R.choice(["Invasive carcinoma NST","Acinar adenocarcinoma","Acute suppurative appendicitis","Chronic cholecystitis","Reactive lymphoid hyperplasia"]))
    n.t("\n\nPathologist: "); title_dr(n,R,pat,'full'); n.t("\n"); n.p(email(R,pat,'moh.gov.my'),'EMAIL','doctor',pat.trad); n.t("\n")
    return n,'histopathology_report'

# 5. nursing handover table
def handover(R):
    ref=D(R); w=R.choice(WARDS); n=Note(); n.t("NURSING SHIFT HANDOVER - "); n.c(w,'WARD_BED'); n.t("  "); n.c(fdate(R,ref),'DATE'); n.t(" ")
    n.t(R.choice(["AM->PM","PM->Night","Night->AM"])); n.t("\nHanded over by: SN "); a=person(R,'nurse'); b=person(R,'nurse'); n.name(a,'short'); n.t("  To: JM "); n.name(b,'short')
    n.t("\n\nBed | Name | IC | RN | Dx | Remarks\n")
    for i in range(R.randint(6,10)):
        pt=mk_pt(R,ref); n.c(f"B{R.randint(1,32)}" if R.random()<0.5 else f"Bed {R.randint(1,32)}",'WARD_BED'); n.t(" | ")
        n.name(pt,R.choice(['full','caps','full'])); n.t(" | "); n.p(ic_of(R,pt),'MY_IC','patient'); n.t(" | "); n.p(mrn(R),'MRN','patient'); n.t(" | ")
        code,dx=R.choice(ICD); n.t(dx+" | ")
        k=R.random()
        if k<0.3: n.c(vital(R),'VITAL'); n.t(", on "); n.c(dosage(R),'DOSAGE')
        elif k<0.5: n.c(R.choice(["Foley catheter","Ryle's tube","Hickman line"]),'EPONYM'); n.t(" in situ, "); n.c(vital(R),'VITAL')
        elif k<0.7: n.t("NBM, for OT tmr. NOK "); rel=relative_of(R,pt); n.name(rel,'short'); n.t(" "); n.p(phone(R),'PHONE','relative',rel.trad)
        else: n.c(lab(R),'LAB'); n.t(", repeat in AM. "); n.c(R.choice(["POD 2","POD#1","post-op day 3"]),'POSTOP')
        n.t("\n")
    n.t("\nNurse in-charge: Sister "); c=person(R,'nurse'); n.name(c,'full'); n.t(" samb. "); n.t(str(R.randint(2000,2999))); n.t("\nMO oncall aware - "); n.c("MO oncall",'ROLE'); n.t(" to review B-beds.\n")
    return n,'nursing_handover'

# 6. GL request (insurance guarantee letter)
def gl_request(R):
    ref=D(R); hosp=R.choice(PRIVATE); pt=mk_pt(R,ref); dr=person(R,'doctor'); off=person(R,'other'); ins=R.choice(INSURERS)
    n=Note(); n.c(hosp,'HOSPITAL'); n.t("\nPatient Business Office - Guarantee Letter Request\n\nTo: "); n.c(ins,'ORG'); n.t(" Claims Dept / "); n.c(R.choice(TPA),'ORG')
    n.t("\nEmail: "); n.p(f"claims.{R.choice(['gl','pbo','admission'])}@{R.choice(['kpj','pantai','sunway'])}med.com.my",'EMAIL','institution'); n.t("\nDate: "); n.c(fdate(R,ref),'DATE')
    n.t("\n\nInsured/Patient: "); n.name(pt,'full'); n.t("\nNRIC: "); n.p(ic_of(R,pt),'MY_IC','patient'); n.t("\nHospital MRN: "); n.p(mrn(R,R.choice(['KPJD','PHKL','SMC','GHP'])),'MRN','patient')
    n.t("\nAdmission date: "); n.c(fdate(R,ref),'DATE'); n.t("   Attending: "); title_dr(n,R,dr,'full')
    code,dx=R.choice(ICD); n.t(f"\nProvisional diagnosis: {dx} ("); n.c(code,'ICD10'); n.t(")\nPlanned procedure: ")
    c2,pr=R.choice(PCS); n.t(pr+" ("); n.c(c2,'ICD10_PCS'); n.t(")\nCasemix group: "); n.c(R.choice([f"MY-DRG {R.choice('GKLNO')}-{R.randint(1,4)}-{R.randint(10,40)}-{R.choice(['I','II','III'])}",f"MS-DRG {R.randint(1,999):03d}",f"DRG {R.randint(100,900)}"]),'DRG'); n.t("\nEstimated LOS: "); n.c(f"{R.randint(2,7)} days",'QUANTITY'); n.t("   Estimated bill: RM "); n.t(f"{R.randint(3,60)},{R.randint(100,999)}.00")
    n.t("\n\nDeposit collected via credit card "); n.p(card(R),'CARD_NUMBER','patient'); n.t(" (approval code "); n.t(str(R.randint(100000,999999))); n.t(").\nRefund (if any) to ")
    bank=R.choice(list(BANKS)); n.c(bank,'ORG'); n.t(" acc no. "); n.p(bank_acc(R,bank),'BANK_ACCOUNT','patient')
    n.t(" under the name of "); n.name(pt,'caps'); n.t(".\nPatient contact: "); n.p(phone(R),'PHONE','patient'); n.t(" / "); n.p(email(R,pt),'EMAIL','patient')
    n.t("\n\nPrepared by: "); n.name(off,'full'); n.t(", Admission Counter ("); n.p(phone(R,'land',ext=True),'PHONE','institution'); n.t(")\n")
    return n,'gl_request'

# 7. panel clinic claim form
def panel_claim(R):
    ref=D(R); pt=mk_pt(R,ref,age=R.randint(20,58)); dr=person(R,'doctor'); clinic=R.choice(GP)
    n=Note(); n.t("PANEL CLINIC CLAIM FORM / BORANG TUNTUTAN KLINIK PANEL\nClinic: "); n.c(clinic,'HOSPITAL'); n.t("\nCompany: "+R.choice(["Syarikat Perkilangan Jaya Sdn Bhd","Teknologi Seri Maju Sdn Bhd","Pembinaan Bumi Hijau Sdn Bhd","Logistik Pantas Bhd"]))
    n.t("\nEmployee name: "); n.name(pt,R.choice(['full','caps'])); n.t("\nIC No.: "); n.p(ic_of(R,pt),'MY_IC','patient'); n.t("   Staff No.: "); n.t(f"E{R.randint(1000,9999)}")
    n.t("\nVisit date: "); n.c(fdate(R,ref),'DATE'); n.t("  Time in: "); n.c(ftime(R),'TIME')
    if R.random()<0.5:
        dep=relative_of(R,pt); dep.age=R.randint(2,16); n.t("\nDependent treated: "); n.name(dep,'full'); n.t(" (child, "); n.c(fage(R,dep.age,dep.sex),'AGE'); n.t(")")
    code,dx=R.choice(ICD[:12]+ICD[15:]); n.t(f"\nDiagnosis: {dx} / "); n.c(code,'ICD10'); n.t("\nTreatment:\n - "); n.c(dosage(R),'DOSAGE'); n.t("\n - "); n.c(dosage(R),'DOSAGE')
    n.t("\nMC given: "); n.c(R.choice(["1 day","2 days","3/7","2/7"]),'QUANTITY'); n.t(" (MC serial "); n.t(f"{R.randint(100000,999999)}"); n.t(")\nConsultation RM 30.00  Medication RM "); n.t(f"{R.randint(10,90)}.{R.randint(10,90)}")
    n.t("\nDoctor: "); title_dr(n,R,dr,'full'); n.t(" (MMC "); n.t(str(R.randint(30000,79999))); n.t(")\nEmployee signature: ____  Tel: "); n.p(phone(R),'PHONE','patient'); n.t("\n")
    return n,'panel_clinic_claim'

# 8. SOCSO / PERKESO form
def socso(R):
    ref=D(R); pt=mk_pt(R,ref,age=R.randint(19,60)); dr=person(R,'doctor'); emp=person(R,'other')
    n=Note(); n.t("PERTUBUHAN KESELAMATAN SOSIAL (PERKESO)\nBORANG 10 - "+R.choice(["Laporan Perubatan Kemalangan Kerja","Notis Kemalangan"])+"\n\n")
    n.t("1. Nama Orang Berinsurans: "); n.name(pt,'caps'); n.t("\n2. No. Kad Pengenalan / No. Keselamatan Sosial: "); n.p(ic_of(R,pt,R.choice(['plain','dash'])),'MY_IC','patient')
    n.t("\n3. Alamat: "+address(R)+"\n4. No. Telefon: "); n.p(phone(R),'PHONE','patient')
    n.t("\n5. Majikan: "+R.choice(["Kilang Papan Sinar Sdn Bhd","Perusahaan Besi Utara Sdn Bhd","Ladang Kelapa Sawit Bukit Lima"])+", ")
    n.t("pegawai dihubungi: "); n.t(emp.title()+" "); n.name(emp,'full'); n.t(" "); n.p(phone(R,'land'),'PHONE','other',emp.trad)
    n.t("\n6. Tarikh & masa kemalangan: "); n.c(fdate(R,ref,'m'),'DATE'); n.t(", "); n.c(ftime(R),'TIME')
    n.t("\n7. Kecederaan: "+R.choice(["luka koyak jari telunjuk kanan","patah tulang pergelangan tangan kiri","kecederaan mata akibat serpihan besi","terseliuh buku lali"])+"\n8. Rawatan: ")
    n.c(R.choice(["T. celecoxib 200mg BD","T. paracetamol 1g QID","T. tramadol 50mg TDS","IM diclofenac 75mg stat","T. arcoxia 90mg OD"]),'DOSAGE'); n.t("; X-ray dibuat. "); n.c(R.choice(["Colles fracture","Thomas splint","Kirschner wires","Lachman test","Denis Browne splint"]),'EPONYM'); n.t(R.choice([" disyaki.\n"," - rujuk ortopedik.\n"])+"9. Cuti sakit: "); n.c(R.choice(["7 hari","14 hari","3/7"]),'QUANTITY')
    n.t("\n10. Doktor yang merawat: "); title_dr(n,R,dr,'full'); n.t(", "); n.c(R.choice(HOSPITALS)[0],'HOSPITAL'); n.t("\nTarikh: "); n.c(fdate(R,ref+dt.timedelta(days=1)),'DATE'); n.t("\n")
    return n,'socso_form'

# 9. police case / medico-legal report
def medicolegal(R):
    ref=D(R); h,ab=R.choice(HOSPITALS); pt=mk_pt(R,ref); dr=person(R,'doctor'); cop=person(R,'other'); place=R.choice(PLACES)
    n=Note(); n.t("MEDICO-LEGAL REPORT (POLICE CASE)\nJabatan Kecemasan & Trauma, "); n.c(h,'HOSPITAL'); n.t("\n\nTo: Ketua Polis Daerah "); n.c(place,'PLACE')
    n.t("\nRef. Repot Polis: "); n.t(f"{place.upper().replace(' ','')}/{R.randint(1000,9999)}/{ref:%y}"); n.t("\nInvestigating officer: "); n.t(R.choice(["Inspektor ","Sjn. ","ASP ","Kpl. "])); n.name(cop,'full')
    n.t(" (Tel: "); n.p(phone(R),'PHONE','other',cop.trad); n.t(")\n\nVictim: "); n.name(pt,'full'); n.t(", "); n.c(fage(R,pt.age,pt.sex),'AGE'); n.t("\nNRIC: ")
    if pt.age>=55 and R.random()<0.5: n.p(old_ic(R),'MY_IC','patient'); n.t(" (old IC) / "); n.p(ic_of(R,pt),'MY_IC','patient')
    else: n.p(ic_of(R,pt),'MY_IC','patient')
    n.t("\nMRN: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t("\n\nHistory: Alleged "+R.choice(["assault by known person","MVA - motorcyclist vs car","domestic violence","fall from height at construction site"])+" at ")
    n.c(ftime(R),'TIME'); n.t(" on "); n.c(fdate(R,ref),'DATE'); n.t(". Brought in by "); n.c("the ambulance crew",'ROLE'); n.t(".\n\nOn examination: "); n.c(vital(R),'VITAL'); n.t(", "); n.c(vital(R),'VITAL'); n.t(", ")
    n.c(f"GCS {R.choice(['15/15','14/15','E3V5M6'])}",'VITAL'); n.t(" ("); n.c("Glasgow Coma Scale",'EPONYM'); n.t(").\nInjuries:\n1. Laceration wound "); n.c(f"{R.randint(1,9)} x {R.randint(1,3)} cm",'QUANTITY'); n.t(" over forehead.\n2. Bruise over left forearm "); n.c(f"{R.randint(2,8)} x {R.randint(2,6)} cm",'QUANTITY')
    n.t(".\n3. "+R.choice(["Tenderness over left ribs 8-10.","Swelling right wrist.","Abrasion over both knees."])+"\n\nOpinion: Injuries consistent with blunt trauma.\n\n"); title_dr(n,R,dr,'full'); n.t("\nPegawai Perubatan, "); n.c(ab,'HOSPITAL'); n.t("\n")
    return n,'medicolegal_report'

# 10. death certificate / burial permit
def death_cert(R):
    ref=D(R); pt=mk_pt(R,ref,age=R.randint(45,99)); inf=relative_of(R,pt); inf.age=R.randint(25,70); dr=person(R,'doctor'); h,ab=R.choice(HOSPITALS)
    n=Note(); n.t(R.choice(["SIJIL PERAKUAN SEBAB KEMATIAN\n","PERMIT PENGEBUMIAN / BURIAL PERMIT\n"])); n.t("Hospital: "); n.c(h,'HOSPITAL')
    n.t("\n\nNama si mati: "); n.name(pt,'caps'); n.t("\nNo. K/P: "); n.p(ic_of(R,pt),'MY_IC','patient')
    if pt.age>=70 and R.random()<0.5: n.t(" (K/P lama: "); n.p(old_ic(R),'MY_IC','patient'); n.t(")")
    n.t("\nNo. RN: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t("\nUmur: "); n.c(f"{pt.age} tahun",'AGE'); n.t("   Jantina: "+("Lelaki" if pt.sex=='M' else "Perempuan"))
    n.t("\nTarikh kematian: "); n.c(fdate(R,ref,'m'),'DATE'); n.t("   Masa: "); n.c(ftime(R),'TIME')
    c1,d1=R.choice(ICD); c2,d2=R.choice(ICD); n.t(f"\n\nSebab kematian:\n(a) {d1} ("); n.c(c1,'ICD10'); n.t(f")\n(b) {d2} ("); n.c(c2,'ICD10'); n.t(")\n(c) Diabetes mellitus\n")
    n.t("\nPemberi maklumat: "); n.name(inf,'full'); n.t(f" ({R.choice(['anak','suami','adik','cucu'] if inf.sex=='M' else ['anak','isteri','adik','cucu'])})\nNo. K/P pemberi maklumat: "); n.p(ic_of(R,inf),'MY_IC','relative',inf.trad)
    n.t("\nTel: "); n.p(phone(R),'PHONE','relative',inf.trad); n.t("\nAlamat: "+address(R))
    n.t("\n\nTempat pengebumian: Tanah Perkuburan "+{'malay':"Islam Kg. Baru",'chinese':"Cina Bukit Kepong",'chinese_western':"Kristian Jalan Kebun",'indian':"Hindu Batu 5",'indian_sikh':"Sikh (tapak pembakaran mayat) Jalan Kebun",'iban':"Kristian Jalan Kebun",'kadazan_dusun':"Kristian Jalan Kebun"}.get(pt.trad,"Awam Batu 3")+", "); n.c(R.choice(PLACES),'PLACE')
    n.t("\n\nDiperakui oleh: "); title_dr(n,R,dr,'full'); n.t(" (MMC "); n.t(str(R.randint(20000,79999))); n.t(")\n")
    return n,'death_certificate'

# 11. outpatient referral slip
def referral_slip(R):
    ref=D(R); pt=mk_pt(R,ref); dr=person(R,'doctor'); kk=R.choice(CLINICS); h=R.choice(HOSPITALS)[0]
    n=Note(); n.t("BORANG RUJUKAN PESAKIT LUAR\nDari: "); n.c(kk,'HOSPITAL'); n.t("\nKepada: Klinik Pakar "+R.choice(["Ortopedik","Surgeri","Perubatan","O&G","ENT","Mata"])+", "); n.c(h,'HOSPITAL')
    n.t("\n\nNama: "); n.name(pt,R.choice(['full','caps'])); n.t("  "); n.c(fage(R,pt.age,pt.sex),'AGE'); n.t("\nK/P: "); n.p(ic_of(R,pt),'MY_IC','patient'); n.t("  Tel: "); n.p(phone(R),'PHONE','patient')
    n.t("\n\nSejarah: "+R.choice(["c/o knee pain 6/12, worse on walking","DM poorly controlled despite max OHA","lump left breast 2/12","reduced vision both eyes","recurrent tonsillitis 5x/yr"])+". ")
    n.c(vital(R),'VITAL'); n.t(". "); n.c(lab(R),'LAB'); n.t(".\nUbat semasa: "); n.c(dosage(R),'DOSAGE'); n.t(", "); n.c(dosage(R),'DOSAGE')
    n.t("\nMohon penilaian dan rawatan lanjut.\n\n"); title_dr(n,R,dr,'full'); n.t("\n"); n.c("Pegawai Perubatan UD41",'ROLE'); n.t("\n"); n.c(fdate(R,ref),'DATE'); n.t("\n")
    return n,'referral_slip'

# 12. pharmacy labels (several)
def pharmacy_labels(R):
    ref=D(R); h,ab=R.choice(HOSPITALS); pt=mk_pt(R,ref); ph=person(R,'other'); pt_mrn=mrn(R,ab.replace(' ',''))
    n=Note()
    for i in range(R.randint(2,4)):
        n.t("------------------------------\n"); n.c(h.upper() if i==0 else ab,'HOSPITAL'); n.t(" - FARMASI PESAKIT LUAR\n"); n.name(pt,'caps' if i%2==0 else 'full')
        n.t("\nRN: "); n.p(pt_mrn,'MRN','patient',pt.trad); n.t("  Tarikh: "); n.c(fdate(R,ref),'DATE'); n.t("\n"); d,s,f=R.choice(DRUGS); n.c(f"{d.upper()} {s}",'DOSAGE')
        n.t("\nAmbil "); n.c(R.choice(["1 biji 2 kali sehari","2 biji 3 kali sehari","1 biji sekali sehari waktu malam","10 unit sebelum tidur"]),'DOSAGE')
        n.t(R.choice([" selepas makan"," sebelum makan",""])+"\nKuantiti: "); n.c(f"{R.choice([28,30,56,60,90])} tab",'QUANTITY'); n.t("  Bekalan: "); n.c(R.choice(["1/12","2/12","4/52"]),'QUANTITY'); n.t("\nDisediakan: "); n.name(ph,'short'); n.t("\n")
    n.t("------------------------------\nPertanyaan ubat: "); n.p(phone(R,'land',ext=True),'PHONE','institution'); n.t("\n")
    return n,'pharmacy_label'

# 13. appointment SMS (batch)
def sms_batch(R):
    ref=D(R); n=Note(); n.t("SMS OUTBOX LOG - "); h,ab=R.choice(HOSPITALS); n.c(ab,'HOSPITAL'); n.t(" Klinik Pakar\n")
    for i in range(R.randint(4,7)):
        pt=mk_pt(R,ref); ph=phone(R,R.choice(['mob','mob60','mob60b'])); n.t(f"[{i+1}] To: "); n.p(ph,'PHONE','patient',pt.trad); n.t(" | ")
        style=R.random()
        if style<0.5:
            n.t("RM0 "); n.c(ab,'HOSPITAL'); n.t(": Salam "); n.name(pt,R.choice(['caps','full'])); n.t(", temujanji anda di Klinik "+R.choice(["Ortopedik","Diabetes","MOPD","Mata"])+" pada "); n.c(fdate(R,ref+dt.timedelta(days=R.randint(3,60)),'s2'),'DATE')
            n.t(" jam "); n.c(ftime(R),'TIME'); n.t(". No RN: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t(". Sila bawa kad temujanji. Tel "); n.p(phone(R,'land'),'PHONE','institution')
        else:
            n.t("Reminder: "); n.t(pt.title()+" "); n.name(pt,'short'); n.t(", your appt at "); n.c(ab,'HOSPITAL'); n.t(" is on "); n.c(fdate(R,ref+dt.timedelta(days=R.randint(3,60)),'l'),'DATE'); n.t(". Fasting blood test required. Reply Y to confirm.")
        n.t(" | status: "+R.choice(["DELIVERED","SENT","FAILED"])+"\n")
    return n,'appointment_sms'

EMO=["🙏","😷","👍","🏥","😅","🤞","💉","❤️","😭","🆗"]
# 14. WhatsApp group between doctors
def whatsapp(R):
    ref=D(R); docs=[person(R,'doctor') for _ in range(R.randint(3,5))]; pt=mk_pt(R,ref); rel=relative_of(R,pt)
    n=Note(); n.t("WhatsApp Chat - "+R.choice(["MED ONCALL TEAM B","Surgical HO group 🔪","O&G oncall 2025","Ortho referral grp"])+"\n")
    t0=R.randint(19,22)
    def sender(d,i):
        ts=f"[{fdate(R,ref,'s')}, {t0+i//4}:{R.randint(10,59)}] "
        n.t("["); n.c(fdate(R,ref,'s'),'DATE'); n.t(", "); n.c(f"{(t0+i//6)%24}:{(i%6)*9+R.randint(1,8):02d}",'TIME'); n.t("] ")
        if R.random()<0.2: n.p(d.ph,'PHONE',d.role,d.trad)
        else: n.p(d.nick,'PERSON',d.role,d.trad)
        if R.random()<0.3: n.t(" "+R.choice(EMO))
        n.t(": ")
    for d in docs:
        d.ph=phone(R,'mob60'); d.nick=R.choice([d.short.lower(),d.short,d.short.lower(),d.form('first').lower()])
    msgs=0
    for i in range(R.randint(6,10)):
        d=R.choice(docs); sender(d,i); k=R.randint(0,6)
        if k==0: n.t("guys new case at ED, "); n.c(fage(R,pt.age,pt.sex),'AGE'); n.t(" "+R.choice(["cbd stone","stemi","dka","dengue w warning signs"])+" pls review "+R.choice(EMO))
        elif k==1: n.t("pt name "); n.name(pt,R.choice(['lower','full','caps'])); n.t(" ic "); n.p(ic_of(R,pt,R.choice(['plain','dash'])),'MY_IC','patient'); n.t(" rn "); n.p(mrn(R),'MRN','patient')
        elif k==2: n.c(vital(R),'VITAL'); n.t(" "); n.c(vital(R),'VITAL'); n.t(" "); n.c(lab(R),'LAB'); n.t(" hmm")
        elif k==3: o=R.choice(docs); n.t("@"); n.p(o.nick,'PERSON',o.role,o.trad); n.t(" can u call the family? husband/wife "); n.name(rel,R.choice(['short','lower'])); n.t(" "); n.p(phone(R),'PHONE','relative',rel.trad)
        elif k==4: n.t("ok noted, started "); n.c(dosage(R),'DOSAGE'); n.t(" "+R.choice(EMO))
        elif k==5: o=R.choice(docs); n.t("thanks "); n.p(o.nick,'PERSON',o.role,o.trad); n.t(" "+R.choice(EMO)+" will inform "); n.c("the specialist oncall",'ROLE')
        else: n.t("bed? "); n.c(ward_bed(R),'WARD_BED'); n.t(" ok. "); n.c(R.choice(EPONYMS),'EPONYM'); n.t(" hx also ya")
        n.t("\n")
    return n,'whatsapp_group'

# 15. e-mail with signature
def email_note(R):
    ref=D(R); a=person(R,'doctor'); b=person(R,'doctor'); c=person(R,'nurse'); pt=mk_pt(R,ref); h,ab=R.choice(HOSPITALS)
    ea=email(R,a,'moh.gov.my'); eb=email(R,b,R.choice(['ummc.edu.my','moh.gov.my','hukm.ukm.edu.my'])); ec=email(R,c,'moh.gov.my')
    n=Note(); n.t("From: "); n.name(a,'full'); n.t(" <"); n.p(ea,'EMAIL','doctor',a.trad); n.t(">\nTo: "); n.p(eb,'EMAIL','doctor',b.trad); n.t("\nCc: "); n.p(ec,'EMAIL','nurse',c.trad)
    n.t("\nDate: "); n.c(fdate(R,ref,'l'),'DATE'); n.t(" "); n.c(ftime(R),'TIME'); n.t("\nSubject: Case discussion - "); n.name(pt,'short'); n.t(" ("); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t(")\n\n")
    n.t(R.choice(["Dear ","Hi ","Salam "])); n.name(b,'short'); n.t(",\n\nReferring "); n.name(pt,'full'); n.t(", "); n.c(fage(R,pt.age,pt.sex),'AGE'); n.t(", NRIC "); n.p(ic_of(R,pt),'MY_IC','patient')
    code,dx=R.choice(ICD); n.t(f", currently in "); n.c(ward_bed(R),'WARD_BED'); n.t(f" for {dx} ("); n.c(code,'ICD10'); n.t("). Latest: "); n.c(lab(R),'LAB'); n.t(", "); n.c(lab(R),'LAB'); n.t(", "); n.c(vital(R),'VITAL')
    n.t(".\nShe/he also has "); n.c(R.choice(EPONYMS),'EPONYM'); n.t(". Family keen for transfer to "); n.c(R.choice(PRIVATE),'HOSPITAL'); n.t(".\nSN "); n.name(c,'short'); n.t(" will fax the documents.\n\nBest regards,\n")
    n.name(a,R.choice(['full','caps'])); n.t("\n"+R.choice(["Clinical Specialist","Medical Officer","Consultant Nephrologist"])+"\nDepartment of Medicine, "); n.c(h,'HOSPITAL'); n.t("\nT: "); n.p(phone(R,'land',ext=True),'PHONE','institution'); n.t(" | M: "); n.p(phone(R,'mob60'),'PHONE','doctor',a.trad)
    n.t("\nE: "); n.p(ea,'EMAIL','doctor',a.trad); n.t("\n\nDISCLAIMER: This e-mail is confidential.\n")
    return n,'email_signature'

# 16. HL7 export
def hl7(R):
    ref=D(R); pt=mk_pt(R,ref); nok=relative_of(R,pt); h,ab=R.choice(HOSPITALS); ab=ab.replace(' ',''); dr=person(R,'doctor')
    ic_of(R,pt); m=mrn(R,ab)
    n=Note(); n.t(f"MSH|^~\\&|HIS|{ab}|LIS|{ab}|{ref:%Y%m%d}{R.randint(0,23):02d}{R.randint(0,59):02d}||ADT^A01|MSG{R.randint(100000,999999)}|P|2.5\n")
    n.t("EVN|A01|"+f"{ref:%Y%m%d}"+"\nPID|1||"); n.p(m,'MRN','patient'); n.t(f"^^^{ab}^MR~"); n.p(pt.ic,'MY_IC','patient'); n.t("^^^JPN^NI||")
    fam=pt.family if pt.family else pt.full.split(' bin ')[0].split(' binti ')[0]
    if pt.trad in('malay',) or not pt.family:
        n.name(pt,'caps'); n.t("^^^^^^L||")
    else:
        n.p(pt.family.upper(),'PERSON','patient',pt.trad); n.t("^"); n.p(pt.full.replace(pt.family,'').strip().upper(),'PERSON','patient',pt.trad); n.t("^^^^^L||")
    n.c(f"{pt.born:%Y%m%d}",'DATE'); n.t(f"|{pt.sex}|||"+address(R).replace(', ','^',1)+"^^MYS||"); n.p(phone(R),'PHONE','patient'); n.t("|||"+R.choice(["M","S","W"])+"||\n")
    n.t("NK1|1|"); n.name(nok,'caps'); n.t("|"+R.choice(["SPO","CHD","PAR","SIB"])+"||"); n.p(phone(R),'PHONE','relative',nok.trad); n.t("\n")
    n.t(f"PV1|1|I|"); n.c(R.choice(WARDS),'WARD_BED'); n.t(f"^{R.randint(1,30)}^^{ab}||||"); n.t(f"{R.randint(1000,9999)}^"); n.p(dr.full.upper() if R.random()<0.5 else dr.full,'PERSON','doctor',dr.trad); n.t("^^^^DR\n")
    code,dx=R.choice(ICD); n.t("DG1|1|I10|"); n.c(code,'ICD10'); n.t(f"^{dx.upper()}^I10||{ref:%Y%m%d}|A\n")
    n.t("OBX|1|NM|HB^Haemoglobin||"); n.t(f"{R.uniform(7,15):.1f}|g/dL|12-16|N|||F\n")
    return n,'hl7_export'

# 17. CSV export
def csv_export(R):
    ref=D(R); n=Note(); n.t("mrn,patient_name,ic_no,dob,sex,contact_no,ward,icd10,admit_date\n")
    for i in range(R.randint(6,10)):
        pt=mk_pt(R,ref); ic_of(R,pt); n.p(mrn(R),'MRN','patient'); n.t(',')
        nm=pt.form(R.choice(['full','caps']))
        if ',' in nm: nm=nm.replace(',','')
        q=R.random()<0.3
        if q: n.t('"')
        n.p(nm,'PERSON','patient',pt.trad)
        if q: n.t('"')
        n.t(','); n.p(fmt_ic(R,pt.ic,R.choice(['plain','dash'])),'MY_IC','patient'); n.t(','); n.c(f"{pt.born:%Y-%m-%d}",'DATE'); n.t(f",{pt.sex},")
        n.p(phone(R,R.choice(['mob','mob60b'])).replace(',',''),'PHONE','patient',pt.trad); n.t(','); n.c(R.choice(WARDS),'WARD_BED'); n.t(','); code,dx=R.choice(ICD); n.c(code,'ICD10'); n.t(','); n.c(fdate(R,ref,'iso'),'DATE'); n.t('\n')
    return n,'csv_export'

# 18. OCR scanned form with noise
def ocr_noise(R,s,level=0.12):
    out=[]
    for ch in s:
        r=R.random()
        if ch=='l' and r<level: out.append('1')
        elif ch=='O' and r<level*2: out.append('0')
        elif ch=='0' and r<level: out.append('O')
        elif ch=='I' and r<level: out.append('l')
        elif ch=='1' and r<level/2: out.append('l')
        elif ch=='S' and r<level/2: out.append('5')
        else: out.append(ch)
        if ch.isalpha() and R.random()<0.03: out.append(' ')
    return ''.join(out).strip()
def ocr_form(R):
    ref=D(R); pt=mk_pt(R,ref); rel=relative_of(R,pt); dr=person(R,'doctor'); h,ab=R.choice(HOSPITALS)
    n=Note(); N=lambda s: ocr_noise(R,s)
    n.t(N("KEMENTERIAN KESIHATAN MALAYSIA")+"\n"+N("BORANG PENDAFTARAN PESAKIT")+"  ~  "); n.c(N(h.upper()),'HOSPITAL'); n.t("\n" + "_"*30+"\n")
    n.t(N("Nama Pesakit")+" : "); n.p(N(pt.full.upper()),'PERSON','patient',pt.trad); n.t("\n"+N("No. K/P")+" : "); n.p(N(fmt_ic(R,ic_of(R,pt) and pt.ic,R.choice(['dash','space','space4','plain']))),'MY_IC','patient')
    n.t("   "+N("No. RN")+" : "); n.p(N(mrn(R,ab.replace(' ',''))),'MRN','patient'); n.t("\n"+N("Tarikh Lahir")+" : "); n.c(N(f"{pt.born:%d/%m/%Y}"),'DATE'); n.t("   "+N("Umur")+": "); n.c(N(f"{pt.age} thn"),'AGE')
    n.t("\n"+N("Alamat")+" : "+N(address(R))+"\n"+N("Tel Bimbit")+" : "); n.p(N(phone(R,'mob')),'PHONE','patient'); n.t("  "+N("Tel Rumah")+": "); n.p(N(phone(R,'land')),'PHONE','patient')
    n.t("\n"+N("Waris terdekat")+" : "); n.p(N(rel.full.upper()),'PERSON','relative',rel.trad); n.t("  "+N("Hubungan")+": "+N(R.choice(["BAPA","SUAMI","ANAK","ABANG"] if rel.sex=="M" else ["IBU","ISTERI","ANAK","KAKAK"])))
    n.t("\n"+N("K/P Waris")+" : "); n.p(N(fmt_ic(R,ic_digits(R,rel)[1],'dash')),'MY_IC','relative',rel.trad); n.t("  "+N("Tel")+": "); n.p(N(phone(R)),'PHONE','relative',rel.trad)
    n.t("\n"+N("Diagnosa")+" : "+N(R.choice(ICD)[1])+"  "); n.c(N(vital(R)),'VITAL'); n.t("\n"+N("Doktor")+" : "); n.t("Dr. "); n.p(N(dr.full),'PERSON','doctor',dr.trad); n.t("\n[stamp] [signature illegible]\n")
    return n,'ocr_scanned_form'

# 19. Malay-only letter
def malay_letter(R):
    ref=D(R); pt=mk_pt(R,ref,trad=R.choice(['malay','malay','chinese','indian','iban','kadazan_dusun'])); dr=person(R,'doctor','malay'); h,ab=R.choice(HOSPITALS); waris=relative_of(R,pt)
    n=Note(); n.c(h.upper(),'HOSPITAL'); n.t("\n"+address(R)+"\nTel: "); n.p(phone(R,'land'),'PHONE','institution')
    n.t("\n\nRuj. Tuan: -\nRuj. Kami: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t("\nTarikh: "); n.c(fdate(R,ref,'m'),'DATE')
    kind=R.choice(['sah','mc','jaga'])
    n.t("\n\nKepada Yang Berkenaan,\n\n"); n.t("SURAT PENGESAHAN "+{"sah":"RAWATAN","mc":"CUTI SAKIT","jaga":"MENJAGA PESAKIT"}[kind]+"\n\nDengan hormatnya saya merujuk perkara di atas.\n\n")
    n.t("2. Adalah disahkan bahawa "); n.t(pt.title()+" "); n.name(pt,'full'); n.t(", No. K/P: "); n.p(ic_of(R,pt),'MY_IC','patient'); n.t(", ")
    n.c(f"umur {pt.age} tahun",'AGE'); n.t(", telah menerima rawatan di "); n.c(ward_bed(R),'WARD_BED'); n.t(" dari "); n.c(fdate(R,ref-dt.timedelta(days=5),'m'),'DATE'); n.t(" hingga "); n.c(fdate(R,ref,'m'),'DATE'); n.t(".\n")
    if kind=='jaga':
        n.t("\n3. Waris pesakit, "); n.name(waris,'full'); n.t(" (No. K/P: "); n.p(ic_of(R,waris),'MY_IC','relative',waris.trad); n.t("), telah menjaga pesakit sepanjang tempoh tersebut dan layak diberi cuti menjaga.\n")
    else:
        n.t("\n3. Pesakit diberi cuti sakit selama "); n.c(f"{R.randint(2,30)} hari",'QUANTITY'); n.t(" dan perlu hadir ke klinik susulan pada "); n.c(fdate(R,ref+dt.timedelta(days=14),'m'),'DATE'); n.t(".\n")
    n.t("\nSekian, terima kasih.\n\n\"MALAYSIA MADANI\"\n\"BERKHIDMAT UNTUK NEGARA\"\n\nSaya yang menjalankan amanah,\n\n(")
    n.name(dr,'caps'); n.t(")\nPegawai Perubatan\nJabatan "+R.choice(["Perubatan","Pembedahan","Ortopedik","Pediatrik"])+"\n"); n.c(h,'HOSPITAL'); n.t("\n")
    return n,'malay_letter'

# 20. foreign worker note
def foreign_worker(R):
    ref=D(R); trad=R.choice(FOREIGN); pt=mk_pt(R,ref,trad=trad,sex=R.choice('MMMF'),age=R.randint(20,45)); agent=person(R,'other'); sup=person(R,'other',trad=trad); dr=person(R,'doctor')
    n=Note(); n.t("FOREIGN WORKER - "+R.choice(["ED NOTE","FOMEMA follow-up","Ward admission"])+"\n"); n.c(R.choice(HOSPITALS)[0],'HOSPITAL'); n.t("   "); n.c(fdate(R,ref),'DATE')
    n.t("\n\nName: "); n.name(pt,R.choice(['full','caps'])); n.t(f" ({trad.split(':')[1]})\nPassport No: "); pp=passport(R,trad); n.p(pp,'PASSPORT','patient',trad)
    n.t("  Permit: PLKS "); n.t(R.choice(["Pembinaan","Perladangan","Perkilangan"])); n.t("\nRN: "); n.p(mrn(R),'MRN','patient'); n.t("   "); n.c(fage(R,pt.age,pt.sex),'AGE')
    n.t("\nEmployer: "+R.choice(["Ladang Sawit Bukit Kijang","Pembinaan Megah Sdn Bhd","Kilang Sarung Tangan Kulim"])+"; supervisor "); n.name(sup,'short'); n.t(" ("); n.p(phone(R),'PHONE','other',trad); n.t(")")
    n.t("\nAgent: "); n.name(agent,'full'); n.t(" "); n.p(phone(R),'PHONE','other',agent.trad); n.t("\nHome contact ("+trad.split(':')[1]+"): "); n.p(foreign_phone(R,trad),'PHONE','relative',trad)
    n.t("\n\nPatient speaks little Malay; "); n.c("the interpreter",'ROLE'); n.t(" assisted. c/o "+R.choice(["fever x 5 days, chills","crush injury right hand at work","cough 3 weeks with LOW","abdominal pain"])+".\n")
    n.c(vital(R),'VITAL'); n.t(", "); n.c(vital(R),'VITAL'); n.t(". "); n.c(lab(R),'LAB'); n.t(". BFMP: "+R.choice(["no MP seen","P. knowlesi ++"])+".\n")
    code,dx=R.choice(ICD); n.t(f"Imp: {dx} ("); n.c(code,'ICD10'); n.t(")\nPlan: "); n.c(dosage(R),'DOSAGE'); n.t("; inform employer re: hospital bill (foreigner rate). Passport "); n.p(pp,'PASSPORT','patient',trad); n.t(" photocopied.\n")
    n.t("\n"); title_dr(n,R,dr); n.t("\n")
    return n,'foreign_worker'

# 21. paediatric with parents
def paeds(R):
    ref=D(R); trad=R.choice(TRADS); kid=mk_pt(R,ref,trad=trad,age=R.randint(0,12)); fa=relative_of(R,kid,sex='M'); mo=relative_of(R,kid,sex='F'); fa.age=R.randint(24,48); mo.age=R.randint(21,44); dr=person(R,'doctor'); h,ab=R.choice(HOSPITALS)
    import re as _re
    mm=_re.match(r'^(.*?) (bin|binti|b\.|bt\.|bte|B\.|Bt\.|a/l|a/p|s/o|d/o|A/L|A/P|anak|ak|Anak) (.*)$',kid.full)
    if mm and trad in('malay','indian','iban') and not mm.group(3).startswith('Haji') and not mm.group(3).startswith('Che '):
        fg=mm.group(3); con={'malay':'bin','indian':R.choice(['a/l','s/o']),'iban':'anak'}[trad]
        pool={'malay':[x for x in MALAY_FATHER if not x.startswith('Haji')],'indian':IN_FATHER,'iban':IBAN_FATHER}[trad]
        gf=R.choice([x for x in pool if x!=fg]); fa.full=f"{fg} {con} {gf}"; fa.short=fg.split()[0]; fa.given=fg
    n=Note(); n.t("PAEDIATRIC ADMISSION - "); n.c(R.choice(["Ward 4A (Paeds)","Wad Kanak-kanak 2","PICU","NICU"]),'WARD_BED'); n.t(", "); n.c(h,'HOSPITAL')
    n.t("\nChild: "); n.name(kid,'full'); n.t("   "); n.c(f"{kid.age} y/o" if kid.age else f"{R.randint(3,40)} days old",'AGE'); n.t("\nMyKid: "); n.p(ic_of(R,kid),'MY_IC','patient',kid.trad)
    n.t("   RN: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient',kid.trad); n.t("\nDOB: "); n.c(f"{kid.born:%d/%m/%Y}",'DATE')
    n.t("\n\nFather: "); n.name(fa,'full'); n.t(", IC "); n.p(ic_of(R,fa),'MY_IC','relative',fa.trad); n.t(", "); n.p(phone(R),'PHONE','relative',fa.trad); n.t(", "+R.choice(["lorry driver","teacher","self-employed","army"]))
    n.t("\nMother: "); n.name(mo,'full'); n.t(", IC "); n.p(ic_of(R,mo),'MY_IC','relative',mo.trad); n.t(", "); n.p(phone(R),'PHONE','relative',mo.trad)
    if R.random()<0.4: n.t(", "); n.p(email(R,mo),'EMAIL','relative',mo.trad)
    n.t("\n\nHx: "+R.choice(["fever 3/7 with fits x1 at home, GTC lasting 2 min","vomiting and diarrhoea x 10 episodes","cough and noisy breathing","jaundice since D3 of life"])+". Birth hx: mother "); g=R.randint(1,5); n.c(f"G{g}P{g-1}" if R.random()<0.5 else f"G{g}P{g-1} at {R.randint(36,41)}/52",'OBSTETRIC'); n.t(", SVD, term, ")
    n.c(f"BW {R.randint(22,40)/10}kg",'VITAL'); n.t(", "); n.c("Apgar score",'EPONYM'); n.t(" 9/10. Immunisation up to date.\nO/E: "); n.c(vital(R),'VITAL'); n.t(", "); n.c(vital(R),'VITAL'); n.t(". "); n.c(lab(R),'LAB'); n.t(", "); n.c(f"SB {R.randint(150,380)}",'LAB')
    n.t(".\nPlan: "); n.c(dosage(R),'DOSAGE'); n.t(". Counselled mother ("); n.t(R.choice(["Puan ","Mdm ",""])); n.name(mo,'short'); n.t(") re: warning signs.\n\n"); title_dr(n,R,dr); n.t(" (HO Paeds)\n")
    return n,'paediatric_parents'

# 22. long multi-page inpatient record with repeated identifiers in varied forms
def long_record(R):
    ref=D(R); pt=mk_pt(R,ref,age=R.randint(40,88)); ic=ic_of(R,pt); h,ab=R.choice(HOSPITALS); abb=ab.replace(' ','')
    m=mrn(R,abb); wife=relative_of(R,pt,sex='F' if pt.sex=='M' else 'M'); son=relative_of(R,pt,sex='M')
    fath=pt if pt.sex=='M' else wife
    if pt.trad in('malay','indian','iban'):
        con={'malay':'bin','indian':'a/l','iban':'anak'}[pt.trad]; fg=fath.given
        son.full=f"{son.given} {con} {fg}"
    spw='wife' if pt.sex=='M' else 'husband'
    docs=[person(R,'doctor') for _ in range(4)]; nurses=[person(R,'nurse') for _ in range(3)]
    ph_p=R.choice(MOB)+str(R.randint(1000000,9999999)); 
    def ph_forms(p):
        return [f"{p[:3]}-{p[3:6]} {p[6:]}",f"+60 {p[1:3]}-{p[3:6]} {p[6:]}",f"{p}",f"6{p}",f"{p[:3]} {p[3:6]} {p[6:]}"]
    ph_w=R.choice(MOB)+str(R.randint(1000000,9999999))
    n=Note(); n.c(h.upper(),'HOSPITAL'); n.t(" - CONTINUATION SHEET (CLINICAL NOTES)\n"); n.t("Name: "); n.name(pt,'caps'); n.t("  RN: "); n.p(m,'MRN','patient'); n.t("  IC: "); n.p(fmt_ic(R,pt.ic,'dash'),'MY_IC','patient'); n.t("\n")
    day0=ref-dt.timedelta(days=R.randint(12,16)); days=R.randint(10,14)
    for di in range(days):
        if n.pos>8600: break
        d=day0+dt.timedelta(days=di); doc=R.choice(docs)
        n.t("\n"+"="*40+"\n"); n.c(fdate(R,d,'s2'),'DATE'); n.t(" "); n.c(ftime(R),'TIME'); n.t(" - "+("ADMISSION CLERKING" if di==0 else R.choice(["WARD ROUND","Review by MO","Specialist round","Night review"]))+"\n")
        if di==0:
            n.t("Pt: "); n.name(pt,'full'); n.t(", "); n.c(fage(R,pt.age,pt.sex),'AGE'); n.t(", NRIC "); n.p(fmt_ic(R,pt.ic,R.choice(['plain','space4','space'])),'MY_IC','patient'); n.t(", RN "); n.p(m,'MRN','patient')
            n.t("\nAddress: "+address(R)+"\nContact: "); n.p(ph_forms(ph_p)[0],'PHONE','patient'); n.t(" (self), "); n.p(ph_forms(ph_w)[1],'PHONE','relative',wife.trad); n.t(f" ({spw} - "); n.name(wife,'full'); n.t(")\n")
            n.t("Background: T2DM x 15 yrs (on "); n.c(dosage(R),'DOSAGE'); n.t(", "); n.c(dosage(R),'DOSAGE'); n.t("), HPT, "); n.c(R.choice(["Parkinson's disease","Graves' disease","Crohn's disease","Alzheimer's disease"]),'EPONYM'); n.t(".\n")
            n.t("HOPI: presented with "+R.choice(["SOB and bilateral LL swelling x 1/52","fever, rigors and RHC pain x 3/7","left sided weakness since waking up","productive cough, fever, reduced effort tolerance"])+". Denies chest pain. Appetite reduced, LOW ")
            n.c(f"{R.randint(2,8)} kg",'QUANTITY'); n.t(" in "); n.c("3/12",'QUANTITY'); n.t(".\nSocial: ex-smoker "); n.c("20 pack-years",'QUANTITY'); n.t(f", lives with {spw} in "); n.c(R.choice(PLACES),'PLACE'); n.t(". Son "); n.name(son,'full'); n.t(" works in Singapore, contact "); n.p(f"+65 {R.randint(8000,9999)} {R.randint(1000,9999)}",'PHONE','relative',son.trad); n.t(".\n")
        n.t("S: "+R.choice(["feels better, tolerating orally","still SOB on minimal exertion","had fever spike overnight","c/o nausea, no vomiting","family concerned about prognosis"])+".\n")
        n.t("O: "); 
        for k in range(R.randint(3,5)): n.c(vital(R),'VITAL'); n.t(", ")
        n.t("\n   "); 
        for k in range(R.randint(3,6)): n.c(lab(R),'LAB'); n.t(" / ")
        n.t("\n   ECG: "); n.c(R.choice(["sinus rhythm, no acute ST-T changes","AF with fast VR 130","ST depression V4-V6","old Q waves inferior leads"]),'ECG'); n.t("\n")
        n.t("A: "+R.choice(["sepsis secondary to CAP","ADHF precipitated by non-compliance","acute ischaemic stroke","AKI on CKD stage 3"])+", improving.\nP:\n 1. "); n.c(dosage(R),'DOSAGE'); n.t("\n 2. "); n.c(dosage(R),'DOSAGE'); n.t("\n 3. strict I/O chart, "); n.c(R.choice(["fluid restriction 1L/day","2 pints NS over 24H","1 unit PRBC"]),'QUANTITY')
        if R.random()<0.5: n.t("\n 4. spoke to family - "); fam=R.choice([wife,son]); n.name(fam,R.choice(['short','full'])); n.t(" updated via phone "); n.p(R.choice(ph_forms(ph_w)) if fam is wife else f"+65 {R.randint(8000,9999)} {R.randint(1000,9999)}",'PHONE','relative',fam.trad)
        if R.random()<0.4: n.t("\n 5. insurance form ("); n.c(R.choice(INSURERS),'ORG'); n.t(") to fill - IC no. "); n.p(fmt_ic(R,pt.ic,R.choice(['plain','dash','space4'])),'MY_IC','patient'); n.t(" verified")
        n.t("\nSeen by: "); title_dr(n,R,doc); n.t(" / "); n.c(R.choice(["HO","MO","Specialist"]),'ROLE'); n.t("\n")
        if R.random()<0.6:
            nu=R.choice(nurses); n.t("\nNursing: "); n.c(ftime(R),'TIME'); n.t(" "); n.c(vital(R),'VITAL'); n.t(", "); n.c("Foley catheter",'EPONYM'); n.t(" draining well, "); n.c(f"UO {R.randint(20,90)}ml/hr",'VITAL'); n.t(". - SN "); n.name(nu,'short'); n.t("\n")
    n.t("\n"+"="*40+"\nDISCHARGE PLANNING\n"); n.t("Patient "); n.name(pt,R.choice(['short','full'])); n.t(" ("); n.p(fmt_ic(R,pt.ic,'plain'),'MY_IC','patient'); n.t(f") to be discharged home with {spw}. TCA "); n.c(R.choice(["2/52","1/12"]),'QUANTITY'); n.t(" MOPD.\n")
    n.t("Social welfare (JKM) referral: "); sw=person(R,'other'); n.name(sw,'full'); n.t(", "); n.p(phone(R,'land',ext=True),'PHONE','other',sw.trad); n.t(".\nDeposit refund to "); bank=R.choice(list(BANKS)); n.c(bank,'ORG'); n.t(" "); n.p(bank_acc(R,bank),'BANK_ACCOUNT','relative',wife.trad); n.t(" (a/c holder: "); n.name(wife,'caps'); n.t(").\n")
    n.t("Discharge summary e-mailed to GP: "); gp=person(R,'doctor'); n.p(email(R,gp),'EMAIL','doctor',gp.trad); n.t(" ("); title_dr(n,R,gp,'full'); n.t(", "); n.c(R.choice(GP),'HOSPITAL'); n.t(").\n")
    n.t("RN "); n.p(m,'MRN','patient'); n.t(" / "); n.p(fmt_ic(R,pt.ic,'dash'),'MY_IC','patient'); n.t("\n")
    return n,'long_inpatient_record'

# 23. old-IC registration update / army/police personnel (old IC forms)
def registration_update(R):
    ref=D(R); pt=mk_pt(R,ref,age=R.randint(62,92)); clerk=person(R,'other'); h,ab=R.choice(HOSPITALS)
    n=Note(); n.t("REKOD PENDAFTARAN - KEMASKINI MAKLUMAT\n"); n.c(h,'HOSPITAL'); n.t("\nNama: "); n.name(pt,'caps'); n.t("\nNo. K/P baru: "); n.p(ic_of(R,pt,R.choice(['dash','nl','space4'])),'MY_IC','patient')
    n.t("\nNo. K/P lama: "); n.p(old_ic(R),'MY_IC','patient'); n.t("\nNo. RN lama: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient'); n.t(" -> RN baru: "); n.p(mrn(R,ab.replace(' ','')),'MRN','patient')
    n.t("\nTel lama: "); n.p(phone(R,'land'),'PHONE','patient'); n.t("  Tel baru: "); n.p(phone(R,'mob60'),'PHONE','patient'); n.t("\nUmur: "); n.c(f"{pt.age} tahun",'AGE')
    n.t("\nCatatan: pesara "+R.choice(["tentera","polis","guru"])+"; kad pesara disemak.\nDikemaskini oleh: "); n.name(clerk,'full'); n.t(" ("); n.c("Pembantu Tadbir",'ROLE'); n.t(") "); n.c(fdate(R,ref),'DATE'); n.t("\n")
    return n,'registration_update'

# 24. international patient (medical tourism) with passport, card, companion
def international(R):
    ref=D(R); trad=R.choice(FOREIGN+['foreign:Indian national']); pt=mk_pt(R,ref,trad=trad if 'Indian national' not in trad else 'indian'); pt.trad=trad
    comp=Person(R,pt.trad if 'Indian national' not in trad else 'indian','M' if pt.sex=='F' else 'F','relative',R.randint(20,60),ref); comp.trad=trad
    coord=person(R,'other'); dr=person(R,'doctor'); hosp=R.choice(["Mahkota Medical Centre","Island Hospital","Gleneagles Hospital Penang","Pantai Hospital Kuala Lumpur","KPJ Johor Specialist Hospital"])
    n=Note(); n.c(hosp,'HOSPITAL'); n.t(" - International Patient Centre\nRegistration & pre-admission\n\nPatient: "); n.name(pt,'full'); n.t("\nNationality: "+{'foreign:Nepali':'Nepal','foreign:Bangladeshi':'Bangladesh','foreign:Indonesian':'Indonesia','foreign:Myanmar':'Myanmar','foreign:Indian national':'India'}[trad])
    pp=passport(R,trad); n.t("\nPassport: "); n.p(pp,'PASSPORT','patient',trad); n.t("  (exp. "); n.c(fdate(R,ref+dt.timedelta(days=R.randint(200,2000)),'s2'),'DATE'); n.t(")\nMRN: "); n.p(mrn(R,R.choice(['MMC','IH','GHP','PHKL'])),'MRN','patient',trad)
    n.t("\nAge/Sex: "); n.c(f"{pt.age}/{pt.sex}",'AGE'); n.t("\nHome tel: "); n.p(foreign_phone(R,trad),'PHONE','patient',trad); n.t("  Local SIM: "); n.p(phone(R,'mob'),'PHONE','patient',trad)
    n.t("\nE-mail: "); n.p(email(R,pt,R.choice(['gmail.com','yahoo.co.id','yahoo.com'])),'EMAIL','patient',trad)
    n.t("\n\nAccompanied by: "); n.name(comp,'full'); n.t(" ("+R.choice(["spouse","sibling","son","daughter"])+"), passport "); cpp=passport(R,trad); n.p(cpp,'PASSPORT','relative',trad); n.t(", tel "); n.p(foreign_phone(R,trad),'PHONE','relative',trad)
    n.t("\nStaying at "+R.choice(["Hotel Equatorial","Ramada Plaza","Hatten Hotel","Cititel"])+" room "+str(R.randint(200,1800))+".\n\nReason for visit: "+R.choice(["second opinion for CA colon","knee replacement","IVF consultation","cardiac screening, angiogram"])+". ")
    c2,pr=R.choice(PCS); n.t("Planned: "+pr+" ["); n.c(c2,'ICD10_PCS'); n.t("].\nDeposit RM "+f"{R.randint(5,40)},000"+" paid by card "); n.p(card(R),'CARD_NUMBER','patient',trad); n.t(" ("); n.name(pt,'caps'); n.t(").\n")
    if R.random()<0.6:
        n.t("Second card (companion): "); n.p(card(R),'CARD_NUMBER','relative',trad); n.t(".\n")
    n.t("Referring doctor overseas: "); od=Person(R,trad if 'Indian national' not in trad else 'indian',R.choice('MF'),'doctor',50,ref); od.trad=trad; n.t("dr. "); n.name(od,'full'); n.t("\n\nCoordinator: "); n.name(coord,'full'); n.t(" | "); n.p(phone(R,'mob60'),'PHONE','other',coord.trad); n.t(" | "); n.p(email(R,coord,'ipc-desk.com.my'),'EMAIL','other',coord.trad)
    n.t("\nConsultant: "); title_dr(n,R,dr,'full'); n.t("\nPassport copy ("); n.p(pp,'PASSPORT','patient',trad); n.t(") and visa verified.\n")
    return n,'international_patient'

# 25. ward deposit / refund form
def refund_form(R):
    ref=D(R); h,ab=R.choice(HOSPITALS+[(p,p) for p in PRIVATE]); pt=mk_pt(R,ref); payer=relative_of(R,pt); off=person(R,'other')
    n=Note(); n.c(h,'HOSPITAL'); n.t("\nBORANG PERMOHONAN PEMULANGAN WANG DEPOSIT / DEPOSIT REFUND\n\nNama pesakit: "); n.name(pt,'caps'); n.t("\nNo. K/P: "); n.p(ic_of(R,pt),'MY_IC','patient')
    n.t("\nNo. Pendaftaran: "); n.p(mrn(R),'MRN','patient'); n.t("\nTarikh masuk/keluar: "); n.c(fdate(R,ref-dt.timedelta(days=4)),'DATE'); n.t(" / "); n.c(fdate(R,ref),'DATE')
    n.t("\nDeposit: RM "+str(R.randint(2,30)*100)+".00 dibayar melalui "); kad=card(R); n.t("kad kredit "); n.p(kad,'CARD_NUMBER','relative',payer.trad)
    n.t("\nPembayar: "); n.name(payer,'full'); n.t(" (K/P "); n.p(ic_of(R,payer),'MY_IC','relative',payer.trad); n.t(")\nBil sebenar: RM "+f"{R.randint(100,2999)}.{R.randint(10,99)}"+"\n\nMaklumat bank untuk pemulangan:\nBank: ")
    bank=R.choice(list(BANKS)); n.c(bank,'ORG'); n.t("\nNo. Akaun: "); n.p(bank_acc(R,bank),'BANK_ACCOUNT','relative',payer.trad); n.t("\nNama pemegang akaun: "); n.name(payer,'caps')
    n.t("\nTel: "); n.p(phone(R),'PHONE','relative',payer.trad); n.t("  E-mel: "); n.p(email(R,payer),'EMAIL','relative',payer.trad)
    n.t("\n\nDisemak oleh: "); n.name(off,'full'); n.t(", Unit Hasil ("); n.p(phone(R,'land',ext=True),'PHONE','institution'); n.t(")\n")
    return n,'refund_form'

TEMPLATES=[(discharge_letter,10),(operation_note,9),(radiology,8),(histopath,7),(handover,9),(gl_request,8),(panel_claim,7),(socso,6),
 (medicolegal,7),(death_cert,7),(referral_slip,7),(pharmacy_labels,6),(sms_batch,6),(whatsapp,9),(email_note,8),(hl7,6),(csv_export,5),
 (ocr_form,8),(malay_letter,8),(foreign_worker,11),(paeds,8),(long_record,10),(registration_update,5),(international,9),(refund_form,7)]
