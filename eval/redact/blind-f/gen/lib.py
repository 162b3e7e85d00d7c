"""Toolkit: note builder, names, identifiers, clinical distractors (own lists, fixed seed)."""
import random, re, datetime as dt

class Note:
    def __init__(self):
        self.parts=[]; self.pos=0; self.ents=[]; self.clin=[]; self.info=[]
    def t(self,s):
        self.parts.append(s); self.pos+=len(s); return self
    def p(self,s,typ,role,trad=None):
        assert s and s==s.strip(), repr(s)
        self.ents.append({"start":self.pos,"end":self.pos+len(s),"type":typ,"text":s})
        self.info.append({"role":role,"tradition":trad,"start":self.pos,"end":self.pos+len(s)})
        return self.t(s)
    def c(self,s,kind):
        assert s and s==s.strip(), repr(s)
        self.clin.append({"start":self.pos,"end":self.pos+len(s),"kind":kind,"text":s}); return self.t(s)
    def text(self): return ''.join(self.parts)
    # person helpers
    def name(self,per,form='full'):
        return self.p(per.form(form),'PERSON',per.role,per.trad)

# ---------------- names (invented lists) ----------------
MALAY_M=["Azrul","Hafizuddin","Khairul Anwar","Mohd Firdaus","Muhammad Haziq","Amirul Hakim","Zulkarnain","Shahrizal",
 "Fadzil","Norazman","Ikhwan","Badrul Hisham","Rosli","Kamarul Ariffin","Syahmi","Wan Azhar","Nik Razlan","Megat Iskandar",
 "Tengku Ariffin","Raja Shahrul","Syed Hafiz","Che Rosdi","Mohd Taufiq","Ismadi","Jamaludin","Hasnul","Zainal Abidin","Radzi",
 "Afiq Danish","Mohd Nazrin","Saiful Bahri","Aizat","Hairi","Nor Hisham","Ahmad Tarmizi","Muhd Zikri"]
MALAY_F=["Nurul Izzati","Siti Hajar","Nor Azlina","Farhana","Rohaya","Suhaila","Wan Nurfarah","Nik Aisyah","Sharifah Nadia",
 "Puteri Balqis","Noraini","Hasnah","Zuraidah","Fatin Nabilah","Aina Sofea","Raihanah","Salmiah","Marlina","Rosmawati",
 "Che Norlia","Izyan","Atiqah","Nur Syafiqah","Mazlinda","Haslinda","Nor Hidayah","Siti Khadijah Humaira","Ummi Kalsom"]
MALAY_FATHER=["Abdullah","Yusof","Hashim","Omar","Ibrahim","Mat Saman","Ghazali","Jaafar","Mokhtar","Harun","Kassim",
 "Salleh","Daud","Embong","Idris","Abu Bakar","Mansor","Hamzah","Sulong","Awang","Haji Ramli","Osman","Latiff","Shukor",
 "Che Mat","Haji Nordin","Alias","Baharom","Mat Isa","Ariffin"]
CN_SUR=["Tan","Chen","Lim","Lam","Lin","Lee","Wong","Ng","Chong","Teoh","Cheong","Goh","Ong","Chan","Yap","Yeap","Khoo",
 "Khor","Ooi","Leong","Loh","Low","Lau","Foo","Cheah","Chua","Choy","Teh","Tay","Kwan","Siew","Heng","Liew","Soh","Beh","Gan","Phang","Yeoh","Tang","Chin"]
CN_GIV_M=["Kok Leong","Chee Keong","Boon Hock","Yong Sheng","Kah Wai","Hock Seng","Wai Kin","Kian Huat","Chin Wah","Ah Kow",
 "Zhi Hao","Jun Wei","Teck Meng","Soon Huat","Kar Lok","Wei Jie","Beng Chye","Kim Poh"]
CN_GIV_F=["Wei Ling","Mei Fong","Siew Lan","Li Ting","Jia Hui","Pei Shan","Swee Lian","Soo Mei","Geok Lan","Yee Ling",
 "Ah Moi","Xin Yi","Hui Min","Siok Keng","Bee Leng","Kwai Fong","Lai Peng","Yoke Chan"]
CN_WEST_M=["Jason","Vincent","Kelvin","Desmond","Alvin","Brandon","Eugene","Marcus","Nicholas","Terence"]
CN_WEST_F=["Cheryl","Melissa","Germaine","Audrey","Vivian","Jocelyn","Priscilla","Evelyn","Charmaine","Stephanie"]
IN_M=["Ganeshan","Muniandy","Rajkumar","Selvam","Thinagaran","Vikneswaran","Prakash","Suresh Kumar","Karthigesu","Devendran",
 "Manimaran","Logeswaran","Sivabalan","Tharmendran","Kugan","Pravin","Yogeswaran","Anbalagan"]
IN_F=["Kalaivani","Thilagavathy","Pushpa","Vasanthi","Jayanthi","Shanthini","Malarvizhi","Revathi","Nirmala","Kavitha",
 "Sangeetha","Yamuna","Komathi","Theivanai","Puvaneswari","Letchumi","Dharshini","Sumathi"]
IN_FATHER=["Periasamy","Arumugam","Subramaniam","Subramanian","Krishnan","Ramasamy","Ramaswamy","Velu","Palanisamy",
 "Sinnathamby","Maniam","Govindasamy","Letchumanan","Chelliah","Muthusamy","Nadarajah","Kandasamy","Rengasamy","Ponnusamy"]
SIKH_M=["Harjit","Baljinder","Jasvinder","Kuldip","Sukhdev","Amarjit","Ranjit"]
SIKH_F=["Gurmeet","Manjit","Harvinder","Rajinder","Jaspal","Satwant"]
SIKH_SUR=["Sandhu","Gill","Dhillon","Grewal","Sidhu","Randhawa",""]
IBAN_M=["Jimbun","Ngelai","Uchau","Sumbang","Entalai","Nyalau","Inggit","Jeragam","Gerinang","Bujang","Rentap"]
IBAN_F=["Siah","Lenya","Mindak","Sulin","Endu","Jamai","Remai","Ubong","Lanyau","Sindau"]
IBAN_FATHER=["Ngumbang","Sabang","Jerah","Lunsong","Ugak","Empaling","Tandang","Kudi","Belayan","Nyanggau"]
KD_M=["Jaimis","Gindol","Sainal","Mojuntin","Jeffery","Ronald","Aloysius","Benedict","Justine","Osmond"]
KD_F=["Roselind","Juliana","Magdalene","Veronica","Florina","Agnes","Cecilia","Modis","Lucy","Fransiska"]
KD_SUR=["Gunsalam","Majalap","Sipaun","Tangau","Lajumin","Ambotang","Sanggau","Matulang","Bolongkit","Gontusan","Sinsua","Lotinggi"]
OA=[("Bah","Tuil"),("Bah","Sudin"),("Yok","Sima"),("Angah","Apoi"),("Busu","Ngah"),("Itam","Pandak"),("Alang","Kerdil"),("Uda","Semang")]
WEST_M=["Thomas Hargreaves","Oliver Brennan","Duncan Fairweather","Philip Ashdown","Callum Rutherford","Andrew Kettering"]
WEST_F=["Fiona McAllister","Hannah Lindqvist","Rachel Dunmore","Imogen Prescott","Claire Whitmore","Joanna Bexley"]
NEPALI_M=["Bishnu Prasad Adhikari","Dil Bahadur Gurung","Suman Shrestha","Krishna Bahadur Magar","Santosh Rai","Min Bahadur Thapa","Hari Kumar Karki"]
NEPALI_F=["Puja Limbu","Gita Kumari Poudel","Sabina Ghimire"]
BD_M=["Md. Rafiqul Islam","Abdul Kalam Sheikh","Shahadat Hossain","Jahangir Alam","Sohel Mia","Rubel Hossain","Md. Shafiqul Bari"]
BD_F=["Nasrin Akter","Shirin Sultana"]
INDO_M=["Suparman","Agus Setiawan","Wahyu Hidayat","Eko Prasetyo","Joko Santoso","Rudi Hartono Siregar"]
INDO_F=["Siti Rukmini","Sri Wahyuni","Yuliani","Nur Fitriyah","Endang Susilowati"]
MM_M=["Aung Ko Ko","Thet Naing Oo","Zaw Min Htun","Kyaw Zin Latt","Mohammad Salim","Win Naing"]
MM_F=["Nyein Nyein Aye","Hla Hla Win","Mya Thandar","Thandar Soe"]
NICK=["Boy","Along","Adik","Ah Boy","Angah","Yan","Ucu"]

STATES={"01":"Johor","02":"Kedah","03":"Kelantan","04":"Melaka","05":"Negeri Sembilan","06":"Pahang","07":"Pulau Pinang",
 "08":"Perak","09":"Perlis","10":"Selangor","11":"Terengganu","12":"Sabah","13":"Sarawak","14":"WP Kuala Lumpur","15":"WP Labuan","16":"WP Putrajaya",
 "21":"Johor","24":"Kedah","28":"Kelantan","30":"Melaka","31":"Negeri Sembilan","36":"Pahang","38":"Pulau Pinang","41":"Perak","45":"Perlis","47":"Selangor","50":"Terengganu","49":"Sabah","53":"Sarawak","54":"WP Kuala Lumpur"}
TRAD_STATE={"iban":["13","53"],"kadazan_dusun":["12","49"],"orang_asli":["06","08","03"]}

class Person:
    def __init__(self,R,trad,sex,role,age=None,ref_date=None):
        self.R=R; self.trad=trad; self.sex=sex; self.role=role
        self.age=age if age is not None else R.randint(19,85)
        self.ref_date=ref_date or dt.date(2025,3,1)
        self.build()
    def build(self):
        R=self.R; s=self.sex; t=self.trad
        if t=='malay':
            g=R.choice(MALAY_M if s=='M' else MALAY_F); f=R.choice(MALAY_FATHER)
            con=R.choice(['bin','bin','b.','B.'] if s=='M' else ['binti','binti','bt.','bte','Bt.'])
            self.full=f"{g} {con} {f}"; gl=g.split()
            pref={'Mohd','Muhammad','Muhd','Nur','Nurul','Siti','Wan','Nik','Che','Nor','Ahmad','Sharifah','Syed','Megat','Raja','Tengku','Puteri','Ummi'}
            self.short=gl[-1] if gl[0] in pref and len(gl)>1 else gl[0]
            self.given=g; self.family=None
        elif t in('chinese','chinese_western'):
            sur=R.choice(CN_SUR); g=R.choice(CN_GIV_M if s=='M' else CN_GIV_F)
            if t=='chinese_western':
                w=R.choice(CN_WEST_M if s=='M' else CN_WEST_F)
                self.full=R.choice([f"{w} {sur} {g}",f"{sur} {g} {w}",f"{w} {sur}"]); self.short=w
            else:
                self.full=f"{sur} {g}"; self.short=R.choice([sur,g])
            self.given=g; self.family=sur
        elif t=='indian':
            g=R.choice(IN_M if s=='M' else IN_F); f=R.choice(IN_FATHER)
            con=R.choice(['a/l','s/o','A/L'] if s=='M' else ['a/p','d/o','A/P'])
            self.full=f"{g} {con} {f}"; self.short=g.split()[0]; self.given=g; self.family=f
        elif t=='indian_sikh':
            g=R.choice(SIKH_M if s=='M' else SIKH_F); sur=R.choice(SIKH_SUR)
            self.full=f"{g} {'Singh' if s=='M' else 'Kaur'}"+(f" {sur}" if sur else ''); self.short=g; self.given=g; self.family=sur
        elif t=='iban':
            g=R.choice(IBAN_M if s=='M' else IBAN_F); f=R.choice(IBAN_FATHER)
            self.full=f"{g} {R.choice(['anak','anak','ak','Anak'])} {f}"; self.short=g; self.given=g; self.family=f
        elif t=='kadazan_dusun':
            g=R.choice(KD_M if s=='M' else KD_F); sur=R.choice(KD_SUR)
            self.full=f"{g} {sur}"; self.short=R.choice([g,sur]); self.given=g; self.family=sur
        elif t=='orang_asli':
            a,b=R.choice(OA); f=R.choice(["Pandak","Ngah","Tuil","Lumang","Hitam","Senik"])
            if f==b: f="Kecik"
            self.full=f"{a} {b} {R.choice(['a/l','anak'] if s=='M' else ['a/p','anak'])} {f}"; self.short=f"{a} {b}"; self.given=self.short; self.family=f
        elif t=='western':
            self.full=R.choice(WEST_M if s=='M' else WEST_F); self.short=self.full.split()[-1]; self.given=self.full.split()[0]; self.family=self.short
        elif t.startswith('foreign:'):
            pools={'foreign:Nepali':(NEPALI_M,NEPALI_F),'foreign:Bangladeshi':(BD_M,BD_F),'foreign:Indonesian':(INDO_M,INDO_F),'foreign:Myanmar':(MM_M,MM_F)}
            self.full=R.choice(pools[t][0] if s=='M' else pools[t][1])
            parts=self.full.replace('Md. ','').split()
            self.short=parts[0] if len(parts)>1 else self.full; self.given=self.short; self.family=parts[-1]
        self.ic=None
    def form(self,f):
        if f=='full': return self.full
        if f=='short': return self.short
        if f=='caps': return self.full.upper()
        if f=='lower': return self.full.lower()
        if f=='shortlower': return self.short.lower()
        if f=='given': return self.given
        if f=='family': return self.family or self.short
        if f=='first': return self.full.split()[0]
        raise ValueError(f)
    def title(self):
        if self.trad=='malay': return self.R.choice(['Encik','En.','Tuan']) if self.sex=='M' else self.R.choice(['Puan','Pn.','Cik'])
        return self.R.choice(['Mr','Mr.']) if self.sex=='M' else self.R.choice(['Mdm','Ms','Mrs','Madam'])

TRADS=['malay']*10+['chinese']*6+['chinese_western']*2+['indian']*4+['indian_sikh','iban','iban','kadazan_dusun','kadazan_dusun','orang_asli','western']
FOREIGN=['foreign:Nepali','foreign:Bangladeshi','foreign:Indonesian','foreign:Myanmar']
def person(R,role,trad=None,sex=None,age=None,ref=None):
    trad=trad or R.choice(TRADS); sex=sex or R.choice('MF')
    if trad=='indian_sikh' and sex=='F' and False: pass
    return Person(R,trad,sex,role,age,ref)
def relative_of(R,pt,role='relative',sex=None,rel=None):
    """relative in same tradition; for patronymic traditions child gets father's name"""
    sex=sex or R.choice('MF')
    q=Person(R,pt.trad if not pt.trad.startswith('foreign') else pt.trad,sex,role,R.randint(20,80),pt.ref_date)
    if pt.trad=='chinese' and R.random()<0.6:
        g=R.choice(CN_GIV_M if sex=='M' else CN_GIV_F); q.full=f"{pt.family} {g}"; q.family=pt.family; q.given=g; q.short=g
    return q

# ---------------- identifiers ----------------
def ic_digits(R,per,state=None):
    born=per.ref_date-dt.timedelta(days=int(per.age*365.25)+R.randint(1,330))
    st=state or R.choice(TRAD_STATE.get(per.trad,list(STATES)))
    last=R.choice('13579' if per.sex=='M' else '02468')
    return born, f"{born:%y%m%d}{st}{R.randint(0,999):03d}{last}"
def fmt_ic(R,d,style=None):
    style=style or R.choice(['dash']*6+['plain']*3+['space','space4','dot'])
    if style=='dash': return f"{d[:6]}-{d[6:8]}-{d[8:]}"
    if style=='plain': return d
    if style=='space': return f"{d[:6]} {d[6:8]} {d[8:]}"
    if style=='space4': return f"{d[:4]} {d[4:8]} {d[8:]}"
    if style=='dot': return f"{d[:6]}.{d[6:8]}.{d[8:]}"
    if style=='nl': return f"{d[:6]}-{d[6:8]}-\n{d[8:]}"
    return d
def old_ic(R):
    return R.choice([f"A{R.randint(1000000,9999999)}",f"K {R.randint(100000,999999)}",f"H{R.randint(100000,999999)}",f"A {R.randint(100000,999999)}",f"K{R.randint(1000000,9999999)}"])
HOSP_MRN=["HKL","HSA","HPP","HTAA","HRPB","HSB","HQE","HUS","HSNZ","HRPZ","HTF","HSI","HMel","HSel","HSdg"]
def mrn(R,code=None):
    code=code or R.choice(HOSP_MRN); y=R.randint(2008,2024); n=R.randint(1,999999)
    return R.choice([f"{code}/{y}/{n:06d}",f"{code}{n:07d}",f"{code}-{n:06d}",f"{code}.{y%100:02d}.{n:06d}",f"{code} {y} {n:05d}",
      f"{n:07d}",f"M{n:07d}",f"{y%100:02d}/{n:06d}",f"RN{n:08d}",f"{code}{y%100:02d}-{n:05d}",f"KK-{n:06d}",f"{n//1000:03d}-{n%1000:03d}-{R.randint(10,99)}"])
MOB=['010','011','012','013','014','016','017','018','019']
def phone(R,kind=None,ext=False):
    kind=kind or R.choice(['mob']*5+['mob60','mob60b','land'])
    if kind=='mob':
        p=R.choice(MOB)
        if p=='011': s=f"{p}-{R.randint(1000,9999)} {R.randint(1000,9999)}"
        else: s=R.choice([f"{p}-{R.randint(100,999)} {R.randint(1000,9999)}",f"{p}-{R.randint(1000000,9999999)}",f"{p}{R.randint(1000000,9999999)}",f"{p} {R.randint(100,999)} {R.randint(1000,9999)}"])
    elif kind=='mob60':
        p=R.choice(MOB)[1:]; s=R.choice([f"+60 {p}-{R.randint(100,999)} {R.randint(1000,9999)}",f"+60{p}{R.randint(1000000,9999999)}",f"+6{R.choice(MOB)}-{R.randint(1000000,9999999)}"])
    elif kind=='mob60b':
        p=R.choice(MOB)[1:]; s=R.choice([f"60{p}{R.randint(1000000,9999999)}",f"(+60) {p} {R.randint(100,999)} {R.randint(1000,9999)}",f"+60 {p} {R.randint(1000,9999)} {R.randint(100,999)}"])
    else:
        a=R.choice(['03','03','04','05','06','07','09','082','084','085','086','087','088','089'])
        if a=='03': s=R.choice([f"03-{R.randint(2000,9999)} {R.randint(1000,9999)}",f"03-{R.randint(20000000,99999999)}",f"(03) {R.randint(2000,9999)} {R.randint(1000,9999)}",f"+603-{R.randint(2000,9999)} {R.randint(1000,9999)}"])
        elif len(a)==3: s=R.choice([f"{a}-{R.randint(200000,999999)}",f"{a}-{R.randint(200,999)} {R.randint(100,999)}",f"+60 {a[1:]}-{R.randint(200000,999999)}"])
        else: s=R.choice([f"{a}-{R.randint(200,999)} {R.randint(1000,9999)}",f"{a}-{R.randint(2000000,9999999)}",f"({a}) {R.randint(200,999)} {R.randint(1000,9999)}"])
    if ext: s+=R.choice([f" ext. {R.randint(100,9999)}",f" samb. {R.randint(100,999)}",f" x{R.randint(1000,9999)}",f" ext {R.randint(100,999)}"])
    return s
def foreign_phone(R,trad):
    if 'Nepali' in trad: return f"+977 98{R.randint(10000000,99999999)}"
    if 'Bangladeshi' in trad: return R.choice([f"+880 17{R.randint(10,99)}-{R.randint(100000,999999)}",f"+8801{R.randint(300000000,999999999)}"])
    if 'Indonesian' in trad: return f"+62 812-{R.randint(1000,9999)}-{R.randint(1000,9999)}"
    return f"+95 9 {R.randint(100,999)} {R.randint(100,999)} {R.randint(100,999)}"
def passport(R,trad):
    if 'Nepali' in trad: return R.choice([f"PA{R.randint(1000000,9999999)}",f"{R.randint(10000000,99999999):08d}"])
    if 'Bangladeshi' in trad: return R.choice(["EB","BX","EF","A0"])+f"{R.randint(1000000,9999999)}"
    if 'Indonesian' in trad: return R.choice([f"B{R.randint(1000000,9999999)}",f"X{R.randint(100000,999999)}",f"C{R.randint(1000000,9999999)}"])
    if 'Myanmar' in trad: return R.choice(["MD","MA","MC"])+f"{R.randint(100000,999999)}"
    if 'Indian' in trad: return f"{R.choice('JKLMNPRSTZ')}{R.randint(1000000,9999999)}"
    if 'British' in trad or trad=='western': return f"{R.randint(100000000,999999999)}"
    return R.choice(["A","H","K"])+f"{R.randint(10000000,99999999)}"
def luhn_ok(num):
    s=0
    for i,ch in enumerate(reversed(num)):
        d=int(ch)
        if i%2==1:
            d*=2
            if d>9: d-=9
        s+=d
    return s%10==0
def card(R):
    kind=R.choice(['visa','visa','mc','amex'])
    if kind=='amex': pre=R.choice(['34','37']); L=15
    elif kind=='mc': pre=str(R.randint(51,55)); L=16
    else: pre='4'; L=16
    body=pre+''.join(str(R.randint(0,9)) for _ in range(L-len(pre)-1))
    for d in range(10):
        if luhn_ok(body+str(d)): n=body+str(d); break
    st=R.choice(['space','dash','plain','space'])
    if kind=='amex': g=[n[:4],n[4:10],n[10:]]
    else: g=[n[i:i+4] for i in range(0,16,4)]
    return {'space':' '.join(g),'dash':'-'.join(g),'plain':n}[st]
BANKS={"Maybank":12,"CIMB Bank":10,"Public Bank":10,"RHB Bank":14,"Hong Leong Bank":11,"Bank Islam":14,"Bank Rakyat":12,"BSN":16,"AmBank":13,"Affin Bank":12}
def bank_acc(R,bank):
    L=BANKS[bank]
    while True:
        n=''.join(str(R.randint(0,9)) for _ in range(L))
        if n[0]=='0': continue
        if L>=13 and luhn_ok(n): continue
        break
    st=R.choice(['plain','plain','group'])
    if st=='group':
        if L==12: return f"{n[:4]} {n[4:8]} {n[8:]}"
        if L==14: return f"{n[:2]}-{n[2:5]}-{n[5:]}"
        return f"{n[:4]}-{n[4:]}"
    return n
def email(R,per,domain=None):
    toks=[t for t in re.split(r'[ .]+',per.full.lower()) if t not in('bin','binti','b','bt','bte','a/l','a/p','s/o','d/o','anak','ak','md','mohd','muhammad','muhd','haji','nur','siti')]
    toks=[re.sub(r'[^a-z]','',t) for t in toks if re.sub(r'[^a-z]','',t)]
    a=toks[0]; b=toks[-1] if len(toks)>1 else str(R.randint(70,99))
    domain=domain or R.choice(['gmail.com','yahoo.com','hotmail.com','moh.gov.my','outlook.com','yahoo.com.my','ummc.edu.my','kpjhealth.com.my'])
    user=R.choice([f"{a}.{b}",f"{a}_{b}",f"{a}{b}{R.randint(1,99)}",f"{b}.{a}",f"{a[0]}{b}"])
    return f"{user}@{domain}"

# ---------------- clinical distractors ----------------
HOSPITALS=[("Hospital Kuala Lumpur","HKL"),("Hospital Pulau Pinang","HPP"),("Hospital Tengku Ampuan Afzan","HTAA"),
 ("Hospital Umum Sarawak","HUS"),("Hospital Queen Elizabeth","HQE"),("Hospital Raja Permaisuri Bainun","HRPB"),
 ("Hospital Sultanah Bahiyah","HSB"),("Hospital Selayang","HSel"),("Hospital Serdang","HSdg"),("Hospital Tuanku Fauziah","HTF"),
 ("Hospital Melaka","HMel"),("Hospital Sultanah Nur Zahirah","HSNZ"),("Hospital Tawau","HTwu"),("Hospital Sibu","HSbu"),
 ("Hospital Miri","HMiri"),("Hospital Seri Manjung","HSM"),("Hospital Sultanah Aminah","HSA"),("Hospital Raja Perempuan Zainab II","HRPZ II"),
 ("Hospital Keningau","HKgu"),("Hospital Kapit","HKpt")]
PRIVATE=["KPJ Damansara Specialist Hospital","Pantai Hospital Kuala Lumpur","Gleneagles Hospital Penang","Sunway Medical Centre",
 "Columbia Asia Hospital Seremban","Mahkota Medical Centre","Island Hospital","Timberland Medical Centre","KPJ Johor Specialist Hospital"]
CLINICS=["Klinik Kesihatan Bandar Baru Bangi","Klinik Kesihatan Tampoi","Klinik Kesihatan Jinjang","Klinik Kesihatan Batu 9 Cheras",
 "Klinik Kesihatan Kuala Lipis","Klinik Kesihatan Simpang Renggam","Klinik Kesihatan Tenom","Klinik Kesihatan Lundu",
 "Klinik Kesihatan Seri Kembangan","Klinik Kesihatan Jasin","Klinik Kesihatan Pasir Mas"]
GP=["Klinik Mediviron Setapak","Poliklinik Keluarga Sentosa","Klinik Dr. Syarikat Bersatu","Klinik Famili Kota Damansara","Klinik Rakyat 1Malaysia Kepong","Poliklinik Sejati Klang","Klinik Medijaya Seremban"]
GP=[g for g in GP if 'Dr.' not in g]
PLACES=["Kajang","Seremban","Kuantan","Kluang","Batu Pahat","Sungai Petani","Taiping","Teluk Intan","Kota Bharu","Kuala Terengganu",
 "Bintulu","Sandakan","Keningau","Ranau","Kapit","Sri Aman","Segamat","Muar","Alor Setar","Kangar","Shah Alam","Klang","Subang Jaya","Ampang","Sepang","Temerloh","Kulai","Jerantut"]
INSURERS=["Great Eastern","AIA","Allianz","Etiqa","Prudential","Takaful Malaysia","Tokio Marine","Zurich","FWD Takaful","Sun Life Malaysia"]
TPA=["MiCare","PMCare","Health Connect","AsiaCare","Mediexpress"]
EPONYMS=["Parkinson's disease","Crohn's disease","Glasgow Coma Scale","Hodgkin lymphoma","non-Hodgkin lymphoma","Foley catheter",
 "Ryle's tube","Murphy's sign","McBurney's point","Kussmaul breathing","Cushing's syndrome","Addison's disease","Bell's palsy",
 "Graves' disease","Hashimoto's thyroiditis","Whipple procedure","Pfannenstiel incision","Kocher incision","Colles fracture",
 "Down syndrome","Apgar score","Trendelenburg position","Lachman test","Babinski sign","Wells score","Child-Pugh B","Bishop score",
 "Guillain-Barre syndrome","Wilms tumour","Kaposi sarcoma","Gleason score 3+4","Bloom-Richardson grade 2","Breslow thickness",
 "Hartmann's procedure","Hartmann's pouch","Morison's pouch","Glisson's capsule","Meckel's diverticulum","Barrett's oesophagus",
 "Mallory-Weiss tear","Korsakoff syndrome","Alzheimer's disease","Kawasaki disease","Hirschsprung disease","Tanner stage 3",
 "Schober test","Allen's test","Valsalva manoeuvre","Seldinger technique","Tenckhoff catheter","Hickman line","Denis Browne splint",
 "Thomas splint","Kirschner wires","Ilizarov frame","Baker's cyst","Dupuytren's contracture","de Quervain tenosynovitis","Osgood-Schlatter disease"]
DRUGS=[("paracetamol","1g","QID"),("metformin","500mg","BD"),("amlodipine","10mg","OD"),("atorvastatin","40mg","ON"),("losartan","50mg","OD"),
 ("gliclazide","80mg","BD"),("aspirin","75mg","OD"),("clopidogrel","75mg","OD"),("omeprazole","20mg","BD"),("pantoprazole","40mg","OD"),
 ("frusemide","40mg","BD"),("bisoprolol","2.5mg","OD"),("perindopril","4mg","OD"),("insulin glargine","18 units","ON"),("Actrapid","6 units","TDS"),
 ("co-amoxiclav","625mg","BD"),("cefuroxime","500mg","BD"),("IV ceftriaxone","2g","OD"),("IV tazocin","4.5g","TDS"),("doxycycline","100mg","BD"),
 ("salbutamol MDI","2 puffs","PRN"),("budesonide/formoterol","160/4.5 2 puffs","BD"),("prednisolone","30mg","OD"),("tramadol","50mg","TDS"),
 ("celecoxib","200mg","BD"),("chlorpheniramine","4mg","TDS"),("metoclopramide","10mg","TDS"),("lactulose","15ml","BD"),("enoxaparin","40mg","OD s/c"),
 ("warfarin","3mg","ON"),("levothyroxine","100mcg","OD"),("carbimazole","10mg","TDS"),("MgTrisilicate","15ml","TDS"),("ferrous fumarate","200mg","OD"),
 ("folic acid","5mg","OD"),("sodium valproate","400mg","BD"),("levetiracetam","500mg","BD"),("fluoxetine","20mg","OD"),("olanzapine","10mg","ON"),("haloperidol","5mg","BD")]
LABS=["Hb {:.1f}".format,"TWC {:.1f}".format,"Plt {}".format,"Na {}".format,"K {:.1f}".format,"Urea {:.1f}".format,"Creat {}".format,
 "HbA1c {:.1f}%".format,"FBS {:.1f}".format,"ALT {}".format,"ALP {}".format,"Alb {}".format,"CRP {:.1f}".format,"INR {:.1f}".format,"TSH {:.2f}".format,
 "LDL {:.1f}".format,"eGFR {}".format,"Trop I {}".format,"HCT {}%".format,"Lactate {:.1f}".format]
def lab(R):
    f=R.choice(LABS); name=f.__self__
    if 'Hb ' in name: return f(R.uniform(6,15))
    if 'TWC' in name: return f(R.uniform(3,25))
    if 'Plt' in name: return f(R.randint(18,550))
    if 'Na' in name: return f(R.randint(121,148))
    if 'K ' in name: return f(R.uniform(2.8,6.4))
    if 'Urea' in name: return f(R.uniform(2,35))
    if 'Creat' in name: return f(R.randint(45,980))
    if 'HbA1c' in name: return f(R.uniform(5.5,13.5))
    if 'FBS' in name: return f(R.uniform(4,18))
    if 'INR' in name: return f(R.uniform(0.9,4.2))
    if 'TSH' in name: return f(R.uniform(0.01,12))
    if 'LDL' in name: return f(R.uniform(1.5,5.8))
    if 'CRP' in name or 'Lactate' in name: return f(R.uniform(0.5,200 if 'CRP' in name else 8))
    if 'HCT' in name: return f(R.randint(28,54))
    return f(R.randint(5,400))
def vital(R):
    return R.choice([f"BP {R.randint(90,190)}/{R.randint(50,110)}",f"BP {R.randint(90,190)}/{R.randint(50,110)} mmHg",f"PR {R.randint(52,140)}",
      f"HR {R.randint(52,140)} bpm",f"SpO2 {R.randint(86,100)}% RA",f"T {R.randint(360,395)/10}C",f"temp {R.randint(360,395)/10}",f"RR {R.randint(14,32)}",
      f"GCS {R.choice(['15/15','E4V5M6','E3V4M6','14/15','E2V2M5'])}",f"DXT {R.randint(30,250)/10}",f"pain score {R.randint(0,9)}/10",f"Wt {R.randint(380,1050)/10}kg",f"SpO2 {R.randint(90,100)}% under 3L NP"])
def dosage(R):
    d,s,f=R.choice(DRUGS); return R.choice([f"{d} {s} {f}",f"T. {d} {s} {f}",f"{d.capitalize()} {s} {f}"]) if not d.startswith('IV') else f"{d} {s} {f}"
def drug(R): return R.choice(["Panadol","Augmentin","Ventolin","Zyrtec","Nexium","Lipitor","Glucophage","Cardiprin","Clexane","Tramal","Celebrex","Piriton"])
def fdate(R,d,style=None):
    style=style or R.choice(['s','s','s2','l','m','iso'])
    MY=['Januari','Februari','Mac','April','Mei','Jun','Julai','Ogos','September','Oktober','November','Disember']
    if style=='s': return f"{d.day}/{d.month}/{d:%y}"
    if style=='s2': return f"{d:%d/%m/%Y}"
    if style=='l': return f"{d.day} {d:%B %Y}"
    if style=='m': return f"{d.day} {MY[d.month-1]} {d.year}"
    if style=='iso': return f"{d:%Y-%m-%d}"
    if style=='dot': return f"{d:%d.%m.%Y}"
    return f"{d:%d/%m/%Y}"
def ftime(R): return R.choice([f"{R.randint(0,23):02d}{R.choice(['00','15','30','45','10','50'])}H",f"{R.randint(0,23):02d}:{R.randint(0,59):02d}",f"{R.randint(1,11)}.{R.randint(10,59)}{R.choice(['am','pm'])}"])
def fage(R,a,sex):
    return R.choice([f"{a}M" if sex=='M' else f"{a}F",f"{a} y/o",f"aged {a}",f"{a}-year-old",f"{a} yrs",f"{a}/{sex}",f"{a} tahun",f"umur {a} tahun"])
ICD=[("I21.4","NSTEMI"),("J18.9","pneumonia"),("E11.65","T2DM with hyperglycaemia"),("N39.0","UTI"),("A91","dengue haemorrhagic fever"),
 ("K35.80","acute appendicitis"),("I63.9","ischaemic stroke"),("S72.001A","fracture neck of femur"),("J44.1","AECOPD"),("O14.90","pre-eclampsia"),
 ("N18.6","ESRF"),("K80.20","cholelithiasis"),("C50.912","CA breast"),("L03.116","cellulitis left leg"),("A27.9","leptospirosis"),("B50.9","falciparum malaria"),
 ("E86.0","dehydration"),("I50.9","heart failure"),("J45.901","acute asthma"),("K29.70","gastritis"),("S06.0X9A","concussion"),("T63.001A","snake bite"),("A15.0","pulmonary TB")]
PCS=[("0DTJ4ZZ","laparoscopic appendicectomy"),("0FT44ZZ","laparoscopic cholecystectomy"),("10D00Z1","LSCS"),("0SRC0JZ","total knee replacement"),
 ("0HTU0ZZ","left mastectomy"),("0Y6J0Z2","left below-knee amputation"),("0QS604Z","DHS fixation"),("0W9B30Z","left chest tube insertion"),
 ("0DB68ZX","OGDS with biopsy"),("0UT90ZZ","TAH"),("0DTN0ZZ","sigmoid colectomy"),("0JH60XZ","port insertion")]
WARDS=["Ward 5B","Wad 7A","Ward 3 North","Wad Kenanga 2","MW2","SW1","Ward 12","Wad Orkid","CCU","ICU","HDW","Ward 6C","Wad Mawar","Ward 9 Ortho"]
def ward_bed(R): w=R.choice(WARDS); return R.choice([f"{w} bed {R.randint(1,36)}",f"{w}, katil {R.randint(1,36)}",f"{w} B{R.randint(1,36)}",w])
ADDR_ST=["Jalan Kenari","Jalan Cempaka","Jalan Merbah","Jalan Seroja","Jalan Perdana","Jalan Meranti","Jalan Angsana","Jalan Delima","Jalan Nuri","Jalan Teratai","Jalan Bayu"]
ADDR_TMN=["Taman Desa Aman","Taman Sri Andalas","Taman Bukit Indah","Taman Seri Gombak","Taman Melawati","Taman Universiti","Taman Permata","Taman Sentosa Jaya"]
def address(R):
    pc=R.randint(10000,98999)
    return R.choice([f"No. {R.randint(1,199)}, {R.choice(ADDR_ST)} {R.randint(1,12)}, {R.choice(ADDR_TMN)}, {pc} {R.choice(PLACES)}",
      f"Lot {R.randint(100,4999)}, Kampung {R.choice(['Sungai Lui','Parit Baru','Batu Lapan','Sri Tanjung','Bukit Tengah'])}, {pc} {R.choice(PLACES)}",
      f"Blok {R.choice('ABCDE')}-{R.randint(1,20)}-{R.randint(1,12)}, Pangsapuri {R.choice(['Seri Mutiara','Vista Angkasa','Desa Rakyat'])}, {pc} {R.choice(PLACES)}",
      f"Lorong {R.randint(1,9)}{R.choice('ABC')}, {R.choice(ADDR_ST)}, {pc} {R.choice(PLACES)}"])
