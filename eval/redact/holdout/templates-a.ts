/**
 * Templates of the tuning part of the held-out corpus (note styles that the dev corpus does not have).
 * Each returns marked-up text (see lib.ts); names come from pool A.
 */
import { G, K } from './gen';
import { phi } from './lib';

export type Template = (g: G) => string;

export const TEMPLATES_A: Array<[string, Template]> = [
  [
    'gp_letter',
    (g) => {
      const gp = g.person();
      const sp = g.person('eponym');
      const pt = g.person();
      const a = g.age(30, 80);
      return `KLINIK ${g.pick(['MEDIVIRON', 'FAMILY CARE', 'DR SITI & RAKAN-RAKAN', 'KESIHATAN KELUARGA'])}
No. 12, Jalan ${g.pick(['Bunga Raya', 'Tun Razak', 'Merdeka'])}, ${K('PLACE', g.pick(['Seremban', 'Kuantan', 'Ipoh', 'Klang']))}
Tel: ${g.land(null, 'other')}

${g.date(2)}

Dr ${g.P(sp, 'doctor', sp.titled)}
Consultant Endocrinologist
${K('HOSPITAL', "Hospital Tuanku Ja'afar")}

Dear Dr ${g.P(sp, 'doctor', sp.titled)},

Re: ${g.P(pt, 'patient')} (IC ${g.ic(pt, a)}), ${K('AGE', `${a} years old`)}

Thank you for seeing this ${pt.sex === 'M' ? 'gentleman' : 'lady'} with poorly controlled T2DM despite ${K('DOSAGE', 'metformin 1g BD')} and ${K('DOSAGE', 'gliclazide 160mg BD')}. ${K('LAB', 'HbA1c 11.2%')} last month, ${K('LAB', 'eGFR 48')}. ${pt.sex === 'M' ? 'He' : 'She'} also has features suggestive of ${K('EPONYM', "Cushing's syndrome")} (moon face, striae) - I would be grateful for your opinion.

${pt.sex === 'M' ? 'He' : 'She'} can be reached at ${g.hp(pt)}.

Yours sincerely,

Dr ${g.P(gp, 'doctor')}
MMC 4${g.r.digits(4)}`;
    },
  ],
  [
    'soap',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      const a = g.age(20, 70);
      const sex = pt.sex;
      return `${g.date(0)} ${g.time()}  OPD FOLLOW-UP
S: ${g.P(pt, 'patient', pt.call)} c/o productive cough x ${K('QUANTITY', '2/52')}, no haemoptysis. Smoker ${g.int(5, 30)} pack-yr.
O: ${K('AGE', `${a}${sex}`)}. Afebrile ${K('VITAL', 'T 36.9')}, ${g.bp()}, ${K('VITAL', `PR ${g.int(60, 110)}`)}, ${K('VITAL', `SpO2 ${g.int(94, 99)}% RA`)}.
   Lungs: coarse creps R base. CXR: R lower zone consolidation.
   ${K('LAB', `TWBC ${g.int(11, 19)}.${g.int(1, 9)}`)}, ${K('LAB', `CRP ${g.int(20, 180)}`)}
A: CAP, CURB-65 ${g.int(0, 1)} (${K('ICD10', 'J18.9')})
P: ${K('DOSAGE', 'T. Augmentin 625mg BD')} ${K('QUANTITY', 'x 7 days')}
   ${K('DOSAGE', 'T. azithromycin 500mg OD')} x3/7
   Review ${K('QUANTITY', '1/52')}, sooner if SOB.
   Contact: ${g.hp(pt, 'patient', 'dash')}
- Dr. ${g.P(dr, 'doctor', dr.titled)} (MO)`;
    },
  ],
  [
    'malay_handover',
    (g) => {
      const pt = g.person('malay');
      const sn1 = g.person('malay', 'F');
      const sn2 = g.person(g.pick(['malay', 'iban', 'kadazan']), 'F');
      const wr = g.person('malay');
      const a = g.age(50, 88);
      return `SERAH TUGAS SYIF PAGI KE PETANG - ${K('WARD_BED', 'Wad 6B')}
Tarikh: ${g.date(5)}

${K('WARD_BED', `Katil ${g.int(1, 30)}`)}: ${g.P(pt, 'patient')}, ${K('AGE', `${a} tahun`)}, No. KP ${g.ic(pt, a)}
Diagnosis: strok iskemia kiri. GCS ${K('VITAL', 'E4V1M5')}. NBM, Ryle's tube feeding ${K('DOSAGE', '250ml')} 4 jam.
Tanda vital: ${g.bp()}, ${K('VITAL', `nadi ${g.int(60, 100)}`)}, ${K('VITAL', 'suhu 37.2')}. Kateter Foley kekal.
Ubat: ${K('DOSAGE', 'T. aspirin 100mg OD')}, ${K('DOSAGE', 'T. atorvastatin 40mg ON')}.
Waris: ${pt.sex === 'M' ? 'isteri' : 'suami'}, ${g.P(wr, 'relative')} - tel ${g.hp(wr, 'relative', g.pick(['dash', 'plain']))}, datang pukul 5 petang.
Isu: luka tekanan gred 2 di sakrum, tukar balutan setiap hari.

Diserahkan oleh: SN ${g.P(sn1, 'nurse', sn1.call)}
Diterima oleh: JM ${g.P(sn2, 'nurse', sn2.call)}`;
    },
  ],
  [
    'icu_flowsheet',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      const a = g.age(40, 80);
      const rows = [];
      for (let i = 0; i < 4; i++) {
        rows.push(
          `${K('TIME', `${String(8 + i * 4).padStart(2, '0')}:00`)} | ${K('VITAL', `HR ${g.int(80, 130)}`)} | ${K('VITAL', `MAP ${g.int(55, 80)}`)} | ${K('VITAL', `CVP ${g.int(6, 14)}`)} | NA ${g.pick(['0.08', '0.1', '0.15', '0.2'])} mcg/kg/min | ${K('VITAL', `UO ${g.int(10, 80)}ml`)}`,
        );
      }
      return `ICU FLOWSHEET - ${K('WARD_BED', `ICU bed ${g.int(1, 16)}`)}
Patient: ${g.P(pt, 'patient')}  ${K('AGE', `${a}/${pt.sex}`)}  MRN ${g.mrn(g.pick([0, 3, 5, 7]), pt)}
Dx: septic shock 2' to perforated viscus, ${K('POSTOP', 'POD 1')} laparotomy
Vent: SIMV ${K('VITAL', 'FiO2 0.5')}, PEEP 8
Time  | HR  | MAP | CVP | Noradrenaline | UO
${rows.join('\n')}
ABG ${K('LAB', 'pH 7.28')} ${K('LAB', 'pCO2 38')} ${K('LAB', 'HCO3 16')} ${K('LAB', 'Lactate 4.1')}
Lab: Hb | Plt | TW
     ${K('LAB', '9.8')} | ${K('LAB', '88')} | ${K('LAB', '22.4')}
Plan: continue ${K('DOSAGE', 'IV meropenem 1g TDS')}, wean NA as tolerated. Surgical team (Dr ${g.P(dr, 'doctor', dr.titled)}) aware.`;
    },
  ],
  [
    'whatsapp_android',
    (g) => {
      const a1 = g.person();
      const a2 = g.person();
      const pt = g.person();
      const d = `${g.int(1, 28)}/${g.int(1, 12)}/24`;
      const phone = g.hpValue('intl-space');
      return `${K('DATE', d)}, ${K('TIME', '21:04')} - ${g.P(a1, 'doctor', a1.call)}: Salam all, new case ${K('WARD_BED', 'bed 14')}
${K('DATE', d)}, ${K('TIME', '21:05')} - ${g.P(a1, 'doctor', a1.call)}: ${g.P(pt, 'patient')} ${K('AGE', `${g.int(20, 80)}${pt.sex}`)}, DKA, ${K('LAB', 'pH 7.1')}, ${K('LAB', 'HCO3 6')}, ketone ${K('LAB', '5.2')} 😟
${K('DATE', d)}, ${K('TIME', '21:07')} - ${g.P(a2, 'doctor', a2.call)}: ok start FRIII, K+ ${K('LAB', '3.9')}. IC pls?
${K('DATE', d)}, ${K('TIME', '21:09')} - ${g.P(a1, 'doctor', a1.call)}: ${g.ic(pt, 30, 'plain')}
${K('DATE', d)}, ${K('TIME', '21:15')} - ${phi('PHONE', phone, 'relative')}: Dr, saya ${pt.sex === 'M' ? 'isteri' : 'suami'} pesakit. Boleh update?
${K('DATE', d)}, ${K('TIME', '21:16')} - ${g.P(a2, 'doctor', a2.call)}: Will call u back shortly 👍`;
    },
  ],
  [
    'ot_list',
    (g) => {
      const rows: string[] = [];
      const surg = g.person('eponym');
      const an = g.person();
      for (let i = 1; i <= 4; i++) {
        const p = g.person();
        const a = g.age(18, 85);
        rows.push(
          `${i} | ${g.P(p, 'patient')} | ${K('AGE', `${a}${p.sex}`)} | ${g.ic(p, a, g.pick(['dash', 'plain']))} | ${g.mrn(g.pick([0, 5, 7]), p)} | ${g.pick(['Lap chole', "Hartmann's procedure", 'TURP', 'ORIF R distal radius', 'Wide local excision', 'Whipple procedure', 'I&D abscess'])}`,
        );
      }
      return `ELECTIVE OT LIST - ${K('HOSPITAL', 'Hospital Sultanah Bahiyah')} - OT 3
${g.date(2)}
Surgeon: Mr ${g.P(surg, 'doctor', surg.titled)}   Anaesthetist: Dr ${g.P(an, 'doctor', an.titled)}
No | Name | Age | IC | RN | Procedure
${rows.join('\n')}
Remarks: case 2 for GA, ${K('LAB', 'Hb 10.1')}; X-match ${K('QUANTITY', '2 units PRBC')}.`;
    },
  ],
  [
    'radiology_request',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      const a = g.age(1, 90);
      return `RADIOLOGY REQUEST FORM
Patient name: ${g.P(pt, 'patient', g.chance(0.5) ? pt.full.toUpperCase() : pt.full)}
RN: ${g.mrn(undefined, pt)}      Age/Sex: ${K('AGE', `${a}/${pt.sex}`)}
Ward: ${K('WARD_BED', `Ward ${g.int(1, 12)}${g.pick(['A', 'B', 'C'])}`)}
Examination: CT brain (non-contrast)
Clinical info: fall at home, GCS dropped ${K('VITAL', 'GCS 13/15')}, on ${K('DRUG', 'warfarin')}, ${K('LAB', 'INR 3.4')}. ?SDH
Creatinine: ${K('LAB', '108')} umol/L
Pregnant: N/A
Requesting doctor: Dr ${g.P(dr, 'doctor')}   Contact ${g.landExt('doctor')}
Date: ${g.date(0)}`;
    },
  ],
  [
    'pharmacy_label',
    (g) => {
      const pt = g.person();
      const ph = g.person();
      return `${K('HOSPITAL', 'FARMASI PESAKIT LUAR HOSPITAL SELAYANG')}
${g.P(pt, 'patient', pt.full.toUpperCase())}
RN ${g.mrn(g.pick([0, 7]), pt)}
${K('DOSAGE', 'METFORMIN 500MG')} TABLET
Ambil ${K('DOSAGE', '2 biji')} 2 kali sehari selepas makan
Qty: 120   Tarikh: ${g.date(0)}
Disediakan oleh: ${g.P(ph, 'other', ph.call.toUpperCase())}
Pertanyaan: ${g.land(null, 'other', '03')}`;
    },
  ],
  [
    'insurance_email',
    (g) => {
      const pt = g.person();
      const clerk = g.person();
      const a = g.age(25, 65);
      return `From: ${g.mail(clerk, 'other', g.pick(['greateastern.com.my', 'aia.com.my', 'allianz.com.my']))}
To: ${g.mailRaw('billing', g.pick(['sunwaymedical.com', 'kpjhealth.com.my', 'pantai.com.my']))}
Subject: GL request - claim CLM-2024-${g.r.digits(6)}

Dear Billing Team,

We refer to the admission of our insured, ${g.P(pt, 'patient')} (NRIC: ${g.ic(pt, a)}), policy no. P${g.r.digits(9)}, admitted on ${g.date(2)} for ${K('ICD10', 'K35.8')} acute appendicitis.

Kindly furnish the itemised bill and discharge summary. The refund of excess deposit (RM ${g.int(200, 900)}.00) will be made to the insured's ${g.pick(['Maybank', 'CIMB', 'Public Bank', 'RHB'])} account ${g.acct(pt)}.

For any queries, please contact the undersigned at ${g.landExt('other')} or ${g.hp(clerk, 'other', 'intl')}.

Best regards,
${g.P(clerk, 'other')}
Claims Executive`;
    },
  ],
  [
    'medicolegal',
    (g) => {
      const pt = g.person();
      const w = g.person();
      const io = g.person('malay', 'M');
      const dr = g.person();
      const a = g.age(18, 60);
      return `LAPORAN PERUBATAN (MEDICO-LEGAL)
No. Repot Polis: ${g.pick(['SENTUL', 'CHERAS', 'BRICKFIELDS'])}/RPT/${g.r.digits(5)}/24
Pegawai Penyiasat: Insp. ${g.P(io, 'other')}

Pesakit: ${g.P(pt, 'patient')}, No. K/P ${g.ic(pt, a, g.pick(['dash', 'plain']))}
Diperiksa pada ${g.date(0)} jam ${g.time()} di Jabatan Kecemasan.

Findings: 3cm laceration over left parietal region, bruises over both forearms (defensive). ${K('VITAL', 'GCS 15/15')}, ${g.bp()}.
CT brain: no ICH. Wound sutured under LA.

The patient was accompanied by a witness, ${g.P(w, 'other')} (tel: ${g.hp(w, 'other')}).

Disediakan oleh,
Dr. ${g.P(dr, 'doctor')}
Pegawai Perubatan, Jabatan Kecemasan`;
    },
  ],
  [
    'private_discharge',
    (g) => {
      const pt = g.person();
      const c1 = g.person();
      const nok = g.person();
      const a = g.age(30, 85);
      return `${K('HOSPITAL', g.pick(['Gleneagles Hospital Kuala Lumpur', 'Sunway Medical Centre', 'Pantai Hospital Ampang', 'KPJ Damansara Specialist Hospital', 'Columbia Asia Hospital']))}
DISCHARGE SUMMARY

Name      : ${g.P(pt, 'patient')}
NRIC      : ${g.ic(pt, a)}
MRN       : ${g.mrn(2, pt)}
Admitted  : ${g.date(2)}      Discharged: ${g.date(2)}
Attending Consultant: Dato' Dr ${g.P(c1, 'doctor')}

Diagnosis: NSTEMI (${K('ICD10', 'I21.4')}); CAD TVD
Procedure: PCI to LAD (${K('ICD10_PCS', '02703DZ')})
Course: Presented with chest pain, ${K('LAB', 'hsTnI 2450')}. Coronary angiogram showed TVD; PCI/DES x1 to LAD. Post-procedure uneventful.
Discharge meds: ${K('DOSAGE', 'T. ticagrelor 90mg BD')}, ${K('DOSAGE', 'T. aspirin 100mg OD')}, ${K('DOSAGE', 'T. bisoprolol 2.5mg OD')}
Follow-up: ${K('QUANTITY', '2/52')} cardiology clinic.
Next of kin: ${g.P(nok, 'relative')} (${g.pick(['son', 'daughter', 'wife', 'husband'])}) ${g.hp(nok, 'relative')}`;
    },
  ],
  [
    'telemed_chat',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      return `Teleconsult transcript - ${g.date(3)}
[${K('TIME', '10:02')}] Patient: Hi Dr. ${g.P(dr, 'doctor', dr.titled)}, this is ${g.P(pt, 'patient')}. Rash since yesterday after eating prawns.
[${K('TIME', '10:03')}] Dr. ${g.P(dr, 'doctor', dr.titled)}: Hi ${g.P(pt, 'patient', pt.call)}. Any lip swelling or difficulty breathing?
[${K('TIME', '10:04')}] Patient: no. just itchy. I took ${K('DOSAGE', 'cetirizine 10mg')} once.
[${K('TIME', '10:06')}] Dr. ${g.P(dr, 'doctor', dr.titled)}: OK, urticaria. Continue ${K('DOSAGE', 'cetirizine 10mg ON')} x5/7. If swelling, go to ED immediately.
[${K('TIME', '10:07')}] Patient: ok thanks doc. my no is ${g.hp(pt, 'patient', 'plain')} in case
[${K('TIME', '10:07')}] Dr. ${g.P(dr, 'doctor', dr.titled)}: Noted. E-MC sent to your email.`;
    },
  ],
  [
    'lab_report_table',
    (g) => {
      const pt = g.person();
      const mlt = g.person();
      const a = g.age(20, 80);
      const plt = g.int(150, 450) * 1000;
      return `PATHOLOGY LABORATORY - CUMULATIVE REPORT
Patient: ${g.P(pt, 'patient')} | ${g.ic(pt, a)} | Lab No: L24-${g.r.digits(6)}
Ward: ${K('WARD_BED', `Ward ${g.int(2, 9)}${g.pick(['A', 'B'])}`)}     Requested: ${g.date(0)}

| Test | Result | Unit | Ref |
| Hb | ${K('LAB', `${g.int(8, 15)}.${g.int(0, 9)}`)} | g/dL | 12-16 |
| Plt | ${K('LAB', String(plt))} | /uL | 150000-400000 |
| WBC | ${K('LAB', `${g.int(4, 20)}.${g.int(0, 9)}`)} | x10^9/L | 4-11 |
| Na | ${K('LAB', String(g.int(125, 145)))} | mmol/L | 135-145 |
| Creat | ${K('LAB', String(g.int(60, 400)))} | umol/L | 60-110 |

Comment: ${K('LAB', `Plt (${g.int(150, 450) * 1000})`)} on repeat sample, no clumps. Cultures (${g.int(1000000, 9999999)}) pending.
Validated by: ${g.P(mlt, 'other')}, MLT`;
    },
  ],
  [
    'ambulance_runsheet',
    (g) => {
      const pt = g.person();
      const pm = g.person('malay', 'M');
      const a = g.age(18, 90);
      return `AMBULANCE RUN SHEET  Unit: AMB ${g.int(10, 99)}  Call received ${g.time()}
Caller: ${g.P(g.person(), 'other')} (neighbour) ${g.hp(null, 'other', 'dash')}
Scene: Taman ${g.pick(['Melawati', 'Sri Muda', 'Desa Jaya'])}, ${K('PLACE', g.pick(['Shah Alam', 'Petaling Jaya', 'Ampang']))}
Pt: ${g.P(pt, 'patient', pt.full.toUpperCase())}, approx ${K('AGE', `${a} yo`)}, found collapsed.
Primary survey: A patent, B ${K('VITAL', 'RR 28')}, C ${K('VITAL', 'HR 130')} ${g.bp()}, D ${K('VITAL', 'GCS 10')}, DXT ${K('VITAL', 'DXT 2.1')}
Tx: IV D50 ${K('DOSAGE', '40ml')}, O2 via NRM ${K('DOSAGE', '15L')}
Handed over to ED red zone ${K('TIME', '14:32')}
Paramedic: PPP ${g.P(pm, 'other', pm.call)}`;
    },
  ],
  [
    'fomema',
    (g) => {
      const w = g.person('foreign');
      const emp = g.person();
      const dr = g.person();
      const country = w.trad.includes('Nepali')
        ? 'NP'
        : w.trad.includes('Bangla')
          ? 'BD'
          : w.trad.includes('Myanmar')
            ? 'MM'
            : w.trad.includes('Indo')
              ? 'ID'
              : w.trad.includes('Filip')
                ? 'PH'
                : 'IN';
      const tel = country === 'NP' || country === 'BD' || country === 'ID' || country === 'PH' ? g.fphone(w, country as 'NP') : g.hp(w);
      return `FOREIGN WORKER MEDICAL EXAMINATION (FOMEMA)
Worker: ${g.P(w, 'patient')}
Passport No.: ${g.passport(w, country)}    Nationality: ${g.pick(['Nepal', 'Bangladesh', 'Myanmar', 'Indonesia', 'Philippines', 'India'])}
Sector: ${g.pick(['Construction', 'Plantation', 'Manufacturing', 'Services'])}
Employer: ${g.pick(['Syarikat Maju Jaya Sdn Bhd', 'Hup Seng Construction Sdn Bhd', 'FGV Plantations'])}, PIC ${g.P(emp, 'other')} (${g.hp(emp, 'other')})
Worker's phone: ${tel}
Height ${K('VITAL', '165cm')}, ${K('VITAL', 'weight 58kg')}, ${g.bp()}
CXR: no active PTB. Urine: drugs of abuse negative. Blood: HIV, VDRL, HBsAg non-reactive.
Result: SUITABLE.
Examining doctor: Dr ${g.P(dr, 'doctor')}`;
    },
  ],
  [
    'phone_notations',
    (g) => {
      const pt = g.person();
      const nok = g.person();
      const a = g.hpValue('dash');
      const b = g.hpValue('dash');
      const c = g.hpValue('plain');
      const d = g.hpValue('plain');
      const e = g.hpValue('dash');
      return `REGISTRATION UPDATE ${g.date(0)}
Name: ${g.P(pt, 'patient')}
Contact: ${phi('PHONE', a)}/${phi('PHONE', b)}
NOK ${g.P(nok, 'relative')} HP ${phi('PHONE', c)}/${phi('PHONE', d)}
Office Tel.${phi('PHONE', e)}
Alt: tel/${g.hp(null, 'patient', 'dash')}  hp${g.hp(null, 'patient', 'plain')}`;
    },
  ],
  [
    'eponym_doctors',
    (g) => {
      const d1 = g.person('eponym');
      const d2 = g.person('eponym');
      const pt = g.person();
      const epo = g.pick([
        ["Parkinson's disease", 'Parkinson'],
        ['Graves disease', 'Graves'],
        ['Foley catheter', 'Foley'],
        ['Glasgow Coma Scale', 'Glasgow'],
        ["Addison's disease", 'Addison'],
        ["Paget's disease of bone", 'Paget'],
      ]);
      const dd1 = d1.titled === epo[1] ? g.person('western') : d1;
      const dd2 = d2.titled === epo[1] || d2.titled === dd1.titled ? g.person('western') : d2;
      return `Ward round ${g.date(1)}: ${g.P(pt, 'patient')} reviewed by Dr ${g.P(dd1, 'doctor', dd1.titled)}, Neurology. Background ${K('EPONYM', epo[0])}.
Dr. ${g.P(dd2, 'doctor', dd2.titled)} (consultant surgeon) inserted a central line today. Dr ${g.P(dd1, 'doctor', dd1.titled)} reviewed the MRI.
${K('EPONYM', "Murphy's sign")} negative. Plan d/w Dr. ${g.P(dd2, 'doctor', dd2.titled)}.`;
    },
  ],
  [
    'refund_letter_malay',
    (g) => {
      const pt = g.person('malay');
      const off = g.person();
      return `BORANG PERMOHONAN BAYARAN BALIK DEPOSIT
Nama pemohon: ${g.P(pt, 'patient')}
No. Kad Pengenalan: ${g.ic(pt, g.age(25, 70))}
No. Telefon: ${g.hp(pt)}
Bank: ${K('ORG', g.pick(['Bank Islam', 'Bank Rakyat', 'BSN', 'Maybank']))}   No. Akaun: ${g.acct(pt, g.pick([12, 14]), false)}
Jumlah: ${K('QUANTITY', `RM ${g.int(100, 2000)}.00`)}
Sebab: deposit wad berlebihan (${K('WARD_BED', 'Wad 3')})
Disemak oleh: ${g.P(off, 'other')}, Unit Hasil`;
    },
  ],
  [
    'card_payment_email',
    (g) => {
      const pt = g.person('western');
      const co = g.person();
      return `Hi ${g.P(co, 'other', co.call)},

Please charge the outstanding balance of RM 3,450.20 for my ${pt.sex === 'M' ? 'wife' : 'husband'}'s stay to my Mastercard ${g.card(pt, 'mc')} (exp 09/27). The admission number is ${g.mrn(2, pt)}.

You can reach me on ${g.fphone(pt, g.pick(['GB', 'AU'] as const))} or locally ${g.hp(pt, 'patient', 'intl')}.

Thanks,
${g.P(pt, 'patient')}
${g.mail(pt, 'patient', 'gmail.com')}`;
    },
  ],
  [
    'sms_reminder',
    (g) => {
      const pt = g.person();
      return `SMS to ${g.hp(pt, 'patient', 'intl-noplus')}: "Salam ${g.P(pt, 'patient', pt.call.toUpperCase())}, temujanji anda di Klinik Pakar Mata ${K('HOSPITAL', 'Hospital Sultanah Nur Zahirah')} pada ${g.date(0)} jam ${K('TIME', '8.30 pagi')}. Sila bawa kad temujanji. Pertanyaan: ${g.land(null, 'other', '09')}. Terima kasih."
Status: delivered ${K('TIME', '09:14')}`;
    },
  ],
  [
    'incident_report',
    (g) => {
      const pt = g.person();
      const sn = g.person(undefined, 'F');
      const mo = g.person();
      const wit = g.person();
      const a = g.age(65, 92);
      return `INCIDENT REPORT - PATIENT FALL
Date/time of incident: ${g.date(0)} ${g.time()}
Location: ${K('WARD_BED', `Ward ${g.int(1, 9)}A bed ${g.int(1, 28)}`)}
Patient: ${g.P(pt, 'patient')} (${K('AGE', `${a}${pt.sex}`)}), RN ${g.mrn(g.pick([0, 6, 7]), pt)}
Description: Patient found on the floor beside the bed by SN ${g.P(sn, 'nurse', sn.call)} during the ${K('TIME', '3am')} round. Bed rails were down. Morse Fall Scale ${K('VITAL', '65')}.
Injury: small haematoma R forehead. Reviewed by Dr ${g.P(mo, 'doctor', mo.titled)}, CT brain NAD.
Witness: ${g.P(wit, 'other')} (patient in next bed), statement taken.
Family informed via ${g.hp(null, 'relative')}.`;
    },
  ],
  [
    'jkm_referral',
    (g) => {
      const pt = g.person(g.pick(['malay', 'orang_asli', 'indian']));
      const so = g.person('malay', 'F');
      const a = g.age(60, 85);
      return `RUJUKAN KE JABATAN KEBAJIKAN MASYARAKAT
Kepada: Pegawai Kebajikan Daerah ${K('PLACE', g.pick(['Kuala Lipis', 'Gua Musang', 'Raub']))}
Pesakit: ${g.P(pt, 'patient')}, ${K('AGE', `umur ${a} tahun`)}, KP ${g.ic(pt, a, 'plain')}
Alamat: Kampung ${g.pick(['Sungai Ruan', 'Pos Betau', 'Kuala Medang'])}, ${K('PLACE', 'Pahang')}
Masalah: tinggal seorang diri, tiada waris, tidak mampu membeli ubat. Pesakit strok dengan hemiparesis kanan.
Mohon bantuan bulanan dan kerusi roda.
Pegawai Kerja Sosial Perubatan: Pn. ${g.P(so, 'other')} (${g.landExt('other')})`;
    },
  ],
  [
    'queue_list',
    (g) => {
      const rows: string[] = [];
      for (let i = 1; i <= 5; i++) {
        const p = g.person();
        rows.push(
          `${String(1000 + i * 7)}\t${g.P(p, 'patient', p.full.toUpperCase())}\t${g.ic(p, g.age(1, 85), g.pick(['dash', 'plain']))}\t${g.hp(p, 'patient', g.pick(['dash', 'plain', 'dash-space']))}`,
        );
      }
      return `SENARAI GILIRAN KLINIK PESAKIT LUAR - ${g.date(0)}
No.\tNama\tNo. KP\tTelefon
${rows.join('\n')}`;
    },
  ],
  [
    'consent_malay',
    (g) => {
      const pt = g.person('malay');
      const wit = g.person();
      const dr = g.person();
      return `BORANG KEIZINAN PEMBEDAHAN
Saya, ${g.P(pt, 'patient')}, No. KP ${g.ic(pt, g.age(20, 70))}, dengan ini bersetuju menjalani pembedahan laparoskopik kolesistektomi yang telah diterangkan oleh Dr. ${g.P(dr, 'doctor')}.
Risiko termasuk pendarahan, jangkitan, kecederaan saluran hempedu dan pertukaran kepada pembedahan terbuka.
Tandatangan pesakit: ________   Tarikh: ${g.date(0)}
Saksi: ${g.P(wit, 'other')}   Hubungan: ${g.pick(['abang', 'kakak', 'anak', 'jiran'])}   Tel: ${g.hp(wit, 'relative')}`;
    },
  ],
  [
    'case_conference',
    (g) => {
      const ppl = [g.person(), g.person(), g.person(), g.person()];
      const pt = g.person();
      return `MINUTES - ONCOLOGY MDT ${g.date(2)}
Present: Dr ${g.P(ppl[0], 'doctor', ppl[0].titled)} (chair), Dr ${g.P(ppl[1], 'doctor', ppl[1].titled)} (radiology), Ms ${g.P(ppl[2], 'nurse', ppl[2].titled)} (breast care nurse), Dr ${g.P(ppl[3], 'doctor')}
Case 1: ${g.P(pt, 'patient')}, ${K('AGE', `${g.int(35, 70)}F`)}, R breast IDC grade 2, ER+/PR+/HER2-. Staging CT no mets.
Decision: WLE + SLNB, then adjuvant RT. Refer ${K('ROLE', 'geneticist')} in view of family history (mother ca breast at 40).
Action: Ms ${g.P(ppl[2], 'nurse', ppl[2].titled)} to call patient (${g.hp(pt)}) with TCA.`;
    },
  ],
  [
    'transfer_call',
    (g) => {
      const caller = g.person();
      const pt = g.person();
      const recv = g.person();
      return `INTER-HOSPITAL TRANSFER - TELEPHONE REFERRAL
${g.date(0)} ${g.time()}
From: Dr ${g.P(caller, 'doctor')}, ${K('HOSPITAL', g.pick(['Hospital Kuala Kubu Bharu', 'Hospital Tanjung Karang', 'Hospital Banting']))} (${g.land(null, 'other', '03')})
Patient: ${g.P(pt, 'patient')}, ${K('AGE', `${g.int(30, 80)} y/o`)}
Summary: ?aortic dissection, ${g.bp()} R arm, ${K('VITAL', '150/90')} L arm, widened mediastinum. CTA not available.
Accepted by: Dr ${g.P(recv, 'doctor', recv.titled)} (CTS MO oncall), call back ${g.hp(recv, 'doctor', 'dash-space')}
Bed: ${K('WARD_BED', 'CICU bed 4')}`;
    },
  ],
  [
    'palliative_home',
    (g) => {
      const pt = g.person();
      const cg = g.person();
      const nurse = g.person(undefined, 'F');
      return `palliative home visit ${g.date(1)}
pt ${g.P(pt, 'patient', pt.full.toLowerCase())}, ca pancreas with liver mets. pain controlled on ${K('DOSAGE', 'mst 30mg bd')} + ${K('DOSAGE', 'oramorph 5mg')} prn.
caregiver ${g.P(cg, 'relative', cg.full.toLowerCase())} (${g.pick(['daughter', 'son', 'niece'])}) coping, requests respite.
${K('VITAL', 'bp 100/60')}, ${K('VITAL', 'pr 96')}. sacral sore gr 2.
plan: syringe driver if unable to swallow. next visit ${K('QUANTITY', '1/52')}.
visited by sn ${g.P(nurse, 'nurse', nurse.call.toLowerCase())}`;
    },
  ],
  [
    'prescription_private',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      return `Dr ${g.P(dr, 'doctor', dr.full.toUpperCase())}
MBBS (Mal), MMC No. ${g.int(30000, 79999)}
Klinik ${g.pick(['Ara Damansara', 'Setia Alam', 'Bukit Jalil'])} Sdn Bhd  |  ${g.land(null, 'other', '03')}

Rx for: ${g.P(pt, 'patient')}       Age: ${K('AGE', `${g.int(2, 80)}`)}
Date: ${g.date(0)}

1. ${K('DOSAGE', 'Amoxicillin 500mg TDS')} x 5/7
2. ${K('DOSAGE', 'Paracetamol 1g QID PRN')}
3. ${K('DOSAGE', 'Loratadine 10mg OD')}
Allergy: nil known`;
    },
  ],
  [
    'fit_to_work',
    (g) => {
      const pt = g.person();
      const hr = g.person();
      const dr = g.person();
      return `MEDICAL REPORT FOR EMPLOYER
To: HR Manager, ${g.P(hr, 'other')}
${g.pick(['Petronas Chemicals Group', 'Top Glove Corporation', 'Intel Malaysia'])}

Re: ${g.P(pt, 'patient')}, Employee ID E${g.r.digits(5)}, IC ${g.ic(pt, g.age(25, 55), g.pick(['plain', 'dash']))}

The above-named was admitted from ${g.date(2)} to ${g.date(2)} for dengue fever without warning signs (${K('ICD10', 'A97.0')}). Platelets recovered to ${K('LAB', 'Plt 210')}. ${pt.sex === 'M' ? 'He' : 'She'} is fit to return to work from ${g.date(2)} with light duties for ${K('QUANTITY', '1/52')}.

Dr ${g.P(dr, 'doctor')}
Occupational Health Physician`;
    },
  ],
  [
    'antenatal_malay_booking',
    (g) => {
      const pt = g.person(g.pick(['malay', 'malay', 'indian', 'chinese']), 'F');
      const hb = g.person(pt.trad === 'malay' ? 'malay' : pt.trad === 'indian' ? 'indian' : 'chinese', 'M');
      const a = g.age(20, 40);
      return `BUKU REKOD KESIHATAN IBU - PENDAFTARAN
Nama ibu: ${g.P(pt, 'patient')}   Umur: ${K('AGE', `${a} tahun`)}
No. KP: ${g.ic(pt, a)}   No. Pendaftaran: ${g.mrn(4, pt)}
Suami: ${g.P(hb, 'relative')}, pekerjaan: ${g.pick(['pemandu lori', 'guru', 'askar', 'peniaga'])}, tel ${g.hp(hb, 'relative')}
${K('OBSTETRIC', 'G3P2')}, LMP ${g.date(0)}, ${K('OBSTETRIC', 'POA 10 weeks')}
${g.bp()}, ${K('LAB', 'Hb 10.9')}, urin albumin -ve, gula -ve
Risiko: previous LSCS x1, kod warna kuning.
Jururawat: JM ${g.P(g.person('malay', 'F'), 'nurse')}`;
    },
  ],
  [
    'dengue_notification',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      const a = g.age(5, 70);
      return `BORANG NOTIFIKASI PENYAKIT BERJANGKIT (WEB-BASED CDC SYSTEM)
Penyakit: Demam denggi (${K('ICD10', 'A90')})
Nama pesakit: ${g.P(pt, 'patient')}
No. KP / Pasport: ${g.ic(pt, a, 'plain')}
Umur: ${K('AGE', `${a} tahun`)}   Jantina: ${pt.sex === 'M' ? 'Lelaki' : 'Perempuan'}
Alamat: No. ${g.int(1, 99)}, Lorong ${g.int(1, 12)}, Taman ${g.pick(['Seri Indah', 'Bukit Kuda', 'Permata'])}, ${K('PLACE', g.pick(['Kajang', 'Klang', 'Seremban']))}
Telefon: ${g.hp(pt, 'patient', 'spaces')}
Tarikh onset: ${g.date(0)}   NS1: positif   ${K('LAB', 'Plt 88')}
Dilaporkan oleh: Dr ${g.P(dr, 'doctor')} (${g.mail(dr, 'doctor', 'moh.gov.my')})`;
    },
  ],
  [
    'dental_note',
    (g) => {
      const pt = g.person(undefined);
      const dso = g.person();
      const a = g.age(6, 70);
      return `DENTAL CLINIC ${g.date(4)}
${g.P(pt, 'patient')} / ${K('AGE', `${a}y`)} / RN ${g.mrn(g.pick([3, 5]), pt)}
C/O: pain 36 x ${K('QUANTITY', '3/7')}
O/E: deep caries 36, TTP +ve. IOPA: periapical radiolucency.
Dx: symptomatic apical periodontitis 36 (${K('ICD10', 'K04.4')})
Tx: LA ${K('DOSAGE', '2.2ml')} lignocaine 2% c adrenaline, access cavity, dressing.
Rx: ${K('DOSAGE', 'ibuprofen 400mg TDS')} PRN.
Dental officer: Dr ${g.P(dso, 'doctor', dso.titled)}`;
    },
  ],
  [
    'ic_notations',
    (g) => {
      const p1 = g.person();
      const p2 = g.person();
      const p3 = g.person();
      const a = g.age(20, 80);
      const fw = g.icRaw(p2, g.age(20, 70), 'fullwidth');
      return `Registration counter notes ${g.date(0)}
1) ${g.P(p1, 'patient')} IC: ${g.ic(p1, a, g.pick(['emdash', 'nbhyphen', 'endash']))} - updated address.
2) ${g.P(p2, 'patient')} NRIC ${fw.marked} (keyed from scanned form)
3) ${g.P(p3, 'patient')} ic${g.ic(p3, g.age(20, 70), 'plain')} hp${g.hp(p3, 'patient', 'plain')}
4) Old IC for ${g.P(p1, 'patient', p1.call)}: ${g.oldIc(p1)}`;
    },
  ],
  [
    'mrn_distractors',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      return `HAEMATOLOGY CONSULT ${g.date(0)}
${g.P(pt, 'patient')} (${g.mrn(g.pick([1, 8]), pt)}), referred for thrombocytosis.
${K('LAB', `Plt (${g.int(450, 900) * 1000})`)}, ${K('LAB', 'Hb 13.1')}, ${K('LAB', 'TWBC 9.2')}. Blood film: no blasts.
Hb | ${K('LAB', '12.3')} | Plt | ${K('LAB', String(g.int(200, 900) * 1000))} |
Cultures (${g.int(1000000, 9999999)}) pending; JAK2 sent (lab ref ${g.int(1000000, 9999999)}).
Impression: reactive vs ET. Repeat FBC ${K('QUANTITY', '4/52')}.
Dr ${g.P(dr, 'doctor', dr.titled)}, Haematology`;
    },
  ],
  [
    'nicu_progress',
    (g) => {
      const mum = g.person(undefined, 'F');
      const dad = g.person(undefined, 'M');
      const dr = g.person();
      return `NICU DAY ${g.int(2, 20)} - Baby of ${g.P(mum, 'relative')}
${K('WARD_BED', `NICU bed ${g.int(1, 20)}`)}   RN (baby): ${g.mrn(g.pick([0, 5, 7]))}
Born ${K('OBSTETRIC', 'POG 29 weeks')}, BW ${K('VITAL', '1.12kg')}; current wt ${K('VITAL', '1.24kg')}
Resp: nCPAP ${K('VITAL', 'FiO2 0.25')}. Caffeine ${K('DOSAGE', '5mg/kg')} OD.
Feeds: EBM ${K('DOSAGE', '8ml')} 2H, tolerating.
Jaundice: SB ${K('LAB', '189')} - phototherapy.
Parents (father ${g.P(dad, 'relative')}, ${g.hp(dad, 'relative')}) updated by Dr ${g.P(dr, 'doctor', dr.titled)}.`;
    },
  ],
  [
    'psych_crisis',
    (g) => {
      const pt = g.person();
      const fr = g.person();
      const mo = g.person();
      return `CRISIS LINE CALL LOG
Time: ${g.time()}  Date: ${g.date(0)}
Caller identified self as ${g.P(pt, 'patient')}, ${K('AGE', `${g.int(18, 40)} y/o`)}, calling from ${g.hp(pt, 'patient', 'plain')}.
Expressed suicidal ideation with plan (overdose of ${K('DRUG', 'paracetamol')}). Has a housemate, ${g.P(fr, 'relative')}, who was asked to stay with ${pt.sex === 'M' ? 'him' : 'her'}.
Police and ambulance dispatched to address given. Psychiatry MO Dr ${g.P(mo, 'doctor', mo.titled)} informed.
Outcome: brought to ED, admitted to ${K('WARD_BED', 'Ward 5')} (psychiatry).`;
    },
  ],
  [
    'vaccination_record',
    (g) => {
      const child = g.person();
      const mum = g.person(undefined, 'F');
      const jm = g.person('malay', 'F');
      const a = g.int(0, 6);
      return `REKOD IMUNISASI KANAK-KANAK
Nama anak: ${g.P(child, 'patient')}
No. MyKid: ${g.ic(child, a, 'dash')}
Nama ibu: ${g.P(mum, 'relative')}   Tel: ${g.hp(mum, 'relative')}
${g.date(0)}  DTaP-IPV-Hib-HepB dos 3, ${K('DOSAGE', '0.5ml')} IM paha kiri
${g.date(0)}  MMR dos 1
Berat: ${K('VITAL', `${g.int(6, 14)}.${g.int(0, 9)}kg`)}
Diberikan oleh: JM ${g.P(jm, 'nurse', jm.call)}`;
    },
  ],
  [
    'bill_statement',
    (g) => {
      const pt = g.person();
      const payer = g.person();
      return `STATEMENT OF ACCOUNT
Patient: ${g.P(pt, 'patient')}     MRN: ${g.mrn(2, pt)}
Bill to: ${g.P(payer, 'relative')}
Ward charges (${K('WARD_BED', 'Room 512')}) ${K('QUANTITY', 'RM 1,200.00')}
Pharmacy ${K('QUANTITY', 'RM 845.60')}
Total ${K('QUANTITY', 'RM 7,380.15')}
Paid: Visa ${g.card(payer, 'visa')} ${K('QUANTITY', 'RM 5,000.00')}
Balance to be paid by ${g.date(0)}. Enquiries: ${g.landExt('other')}`;
    },
  ],
  [
    'orang_asli_mobile',
    (g) => {
      const pt = g.person('orang_asli');
      const tb = g.person('orang_asli');
      const ma = g.person('malay', 'M');
      const a = g.age(20, 70);
      return `Pasukan Bergerak ${K('PLACE', 'Pos Lanai')}, ${K('PLACE', 'Kuala Lipis')} - ${g.date(5)}
${g.P(pt, 'patient')}, ${K('AGE', `${a} thn`)}, KP ${g.ic(pt, a, 'plain')}
Batuk > ${K('QUANTITY', '2/52')}, demam malam, turun berat. Sputum AFB x2 diambil.
Tok Batin ${g.P(tb, 'other', tb.call)} dimaklumkan untuk susulan.
Dirujuk ke ${K('HOSPITAL', 'Hospital Kuala Lipis')}.
Disediakan oleh: PPP ${g.P(ma, 'other')}`;
    },
  ],
  [
    'foreign_patient_email',
    (g) => {
      const pt = g.person('foreign');
      const coord = g.person();
      const c = pt.trad.includes('Indo') ? 'ID' : pt.trad.includes('Filip') ? 'PH' : pt.trad.includes('Bangla') ? 'BD' : 'SG';
      return `Dear Ms ${g.P(coord, 'other', coord.titled)},

I am ${g.P(pt, 'patient')} from ${g.pick(['Medan', 'Pekanbaru', 'Manila', 'Dhaka', 'Singapore'])}. I want to make appointment with cardiologist for my angiogram follow-up. My passport number is ${g.passport(pt, c === 'SG' ? 'SG' : c)} and my WhatsApp is ${g.fphone(pt, c as 'ID')}.

Previous medical record no. at your hospital: ${g.mrn(2, pt)}.

Thank you,
${g.P(pt, 'patient', pt.call)}`;
    },
  ],
  [
    'kadazan_rural',
    (g) => {
      const pt = g.person('kadazan');
      const rel = g.person('kadazan');
      const ma = g.person();
      const a = g.age(2, 80);
      return `KLINIK DESA ${g.pick(['Kiulu', 'Tambunan', 'Ranau', 'Keningau'])} - lawatan ${g.date(1)}
${g.P(pt, 'patient')} (${K('AGE', `${a}${pt.sex}`)}) - fever ${K('QUANTITY', 'x 4 days')}, myalgia, recent jungle trekking.
BFMP: P. knowlesi ++. Referred to ${K('HOSPITAL', 'Hospital Queen Elizabeth')}.
Accompanied by ${g.P(rel, 'relative')} (${g.pick(['brother', 'mother', 'uncle', 'cousin'])}), ${g.hp(rel, 'relative', 'dash')}.
MA ${g.P(ma, 'other', ma.call)}`;
    },
  ],
  [
    'deposit_receipt_email',
    (g) => {
      const pt = g.person();
      const payer = g.person();
      const cashier = g.person();
      return `RESIT / RECEIPT No. OR${g.r.digits(8)}
Received from: ${g.P(payer, 'relative')} (${g.pick(['son', 'daughter', 'spouse', 'brother'])} of ${g.P(pt, 'patient')})
Amount: ${K('QUANTITY', `RM ${g.int(1, 9)},000.00`)} - admission deposit, ${K('WARD_BED', `Ward ${g.int(1, 12)}`)}
Payment mode: ${g.pick(['credit card', 'debit card'])} ${g.card(payer, g.pick(['visa', 'mc', 'amex'] as const))}
Refund (if any) to: ${g.pick(['Maybank', 'CIMB Bank', 'RHB Bank', 'Bank Islam'])} a/c ${g.acct(payer)}
E-receipt sent to ${g.mail(payer, 'relative')}
Cashier: ${g.P(cashier, 'other', cashier.call)}`;
    },
  ],
  [
    'travel_clinic_expat',
    (g) => {
      const pt = g.person(g.pick(['western', 'foreign', 'eurasian']));
      const dr = g.person();
      const c = pt.trad.startsWith('foreign') ? 'PH' : 'GB';
      return `Travel vaccination - ${g.date(2)}
Traveller: ${g.P(pt, 'patient')}, passport ${g.passport(pt, c)} (${c === 'GB' ? 'British' : 'Filipino'})
Destination: ${g.pick(['Nigeria', 'Peru', 'India'])} ${K('QUANTITY', 'x 3 weeks')}
Given: yellow fever ${K('DOSAGE', '0.5ml')} SC, typhoid Vi ${K('DOSAGE', '0.5ml')} IM. Malaria prophylaxis ${K('DOSAGE', 'doxycycline 100mg OD')}.
Certificate e-mailed to ${g.mail(pt, 'patient')}; mobile ${g.fphone(pt, c as 'GB')}
Dr ${g.P(dr, 'doctor', dr.titled)}`;
    },
  ],
];
