/**
 * Templates of the BLIND third of the held-out corpus: other note styles again, names from pool B. Not used while
 * tuning the engine; scored once at the end.
 */
import { K } from './gen';
import type { Template } from './templates-a';

export const TEMPLATES_B: Array<[string, Template]> = [
  [
    'ed_triage_board',
    (g) => {
      const rows: string[] = [];
      for (let i = 0; i < 4; i++) {
        const p = g.person();
        const a = g.age(1, 90);
        rows.push(
          `${g.pick(['RED', 'YELLOW', 'GREEN'])}  ${K('WARD_BED', `Bay ${i + 1}`)}  ${g.P(p, 'patient', g.chance(0.6) ? p.full.toUpperCase() : p.full)}  ${K('AGE', `${a}${p.sex}`)}  ${g.pick(['chest pain', 'SOB', 'fall', 'fever', 'abd pain', 'seizure'])}  ${g.pick(['triaged', 'seen', 'awaiting bed', 'xray'])}`,
        );
      }
      const mo = g.person();
      return `ED WHITEBOARD EXPORT ${g.date(0)} ${g.time()}
Zone  Bay  Patient  Age  C/O  Status
${rows.join('\n')}
MO in charge: Dr ${g.P(mo, 'doctor', mo.titled)}  ext ${g.int(2000, 2999)}`;
    },
  ],
  [
    'ent_letter',
    (g) => {
      const pt = g.person();
      const con = g.person('eponym');
      const gp = g.person();
      const a = g.age(20, 80);
      return `Department of Otorhinolaryngology
${K('HOSPITAL', 'Hospital Pulau Pinang')}

${g.date(2)}

Dr ${g.P(gp, 'doctor')}
Klinik ${g.pick(['Sentosa', 'Bayan Baru', 'Jelutong'])}

Dear colleague,

${g.P(pt, 'patient', pt.full.toUpperCase())}, ${K('AGE', `${a}yo`)}, MRN ${g.mrn(1, pt)}

I reviewed your patient today in the ENT clinic. Nasoendoscopy showed a left vocal cord polyp; no suspicious lesion. Plan for microlaryngoscopy and excision under GA. ${pt.sex === 'M' ? 'He' : 'She'} was counselled and agreed; listing done.

Kind regards,
Dr. ${g.P(con, 'doctor', con.titled)}
Consultant ENT Surgeon
${g.landExt('doctor')} | ${g.mail(con, 'doctor', 'moh.gov.my')}`;
    },
  ],
  [
    'malay_nursing_lowercase',
    (g) => {
      const pt = g.person('malay');
      const rel = g.person('malay');
      const sn = g.person('malay', 'F');
      return `laporan jururawat malam ${g.date(1)}
pesakit ${g.P(pt, 'patient', pt.full.toLowerCase())} tidur lena. ${K('VITAL', 'bp 130/80')}, ${K('VITAL', 'nadi 82')}. drip ns ${K('DOSAGE', '1 pint')} 8 jam.
${pt.sex === 'M' ? 'isteri' : 'suami'} ${g.P(rel, 'relative', rel.call.toLowerCase())} telefon ${K('TIME', '2 pagi')} tanya keadaan, no ${g.hp(rel, 'relative', 'plain')}.
ubat diberi ikut jadual. tiada aduan.
sn ${g.P(sn, 'nurse', sn.call.toLowerCase())}`;
    },
  ],
  [
    'oncology_mdt_list',
    (g) => {
      const rows: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const p = g.person();
        const a = g.age(30, 80);
        rows.push(
          `${i}. ${g.P(p, 'patient')} | ${g.ic(p, a, g.pick(['dash', 'plain', 'space']))} | ${g.pick(['Ca colon T3N1', 'Ca lung adenoCA stage IV', 'Ca cervix IIB', 'NHL DLBCL'])} | for ${g.pick(['chemo', 'RT', 'surgery', 'BSC'])}`,
        );
      }
      const c = g.person('eponym');
      return `MDT list - ${g.date(2)} (chair: Prof. ${g.P(c, 'doctor', c.titled)})
${rows.join('\n')}
Hb | ${K('LAB', '11.2')} | Plt | ${K('LAB', String(g.int(150, 800) * 1000))} | for case 2`;
    },
  ],
  [
    'tb_contact_tracing',
    (g) => {
      const idx = g.person();
      const c1 = g.person();
      const c2 = g.person();
      const a = g.age(20, 70);
      return `PENGESANAN KONTAK TIBI - ${K('PLACE', g.pick(['Sandakan', 'Tawau', 'Lahad Datu']))}
Kes indeks: ${g.P(idx, 'patient')}, KP ${g.ic(idx, a)}, smear +ve ${g.date(0)}
Kontak rapat:
 a) ${g.P(c1, 'relative')} (${g.pick(['isteri', 'anak', 'ibu'])}) - CXR normal, Mantoux ${K('LAB', '12mm')}, tel ${g.hp(c1, 'relative', 'dash')}
 b) ${g.P(c2, 'relative')} (rakan serumah) - simptomatik, dirujuk. Tel: ${g.hp(c2, 'relative', 'plain')}/${g.hp(c2, 'relative', 'plain')}
Pegawai: ${g.P(g.person('malay'), 'other')}, Unit Kawalan TB`;
    },
  ],
  [
    'private_bill_dispute',
    (g) => {
      const pt = g.person();
      const mgr = g.person();
      return `Subject: Re: dispute on invoice INV-${g.r.digits(7)}

Dear ${pt.sex === 'M' ? 'Mr' : 'Ms'} ${g.P(pt, 'patient', pt.titled)},

Thank you for your e-mail. We have reviewed the charges for your admission (MRN ${g.mrn(g.pick([2, 3, 9]), pt)}). The refund of RM 612.40 will be credited to your ${g.pick(['Hong Leong Bank', 'AmBank', 'Alliance Bank', 'OCBC'])} account no. ${g.acct(pt, g.pick([10, 12, 14, 16]))} within 14 working days.

Should you prefer a card reversal instead, please confirm the card used (ending ${g.int(1000, 9999)}).

Yours sincerely,
${g.P(mgr, 'other')}
Patient Accounts Manager
Tel: ${g.land(null, 'other')} | ${g.mail(mgr, 'other', g.pick(['pantai.com.my', 'kpjhealth.com.my', 'sunway.com.my']))}`;
    },
  ],
  [
    'prison_transfer',
    (g) => {
      const pt = g.person();
      const off = g.person('malay', 'M');
      const dr = g.person('eponym');
      const a = g.age(20, 60);
      return `PRISON HEALTH - TRANSFER NOTE
Inmate: ${g.P(pt, 'patient', pt.full.toUpperCase())}  Inmate no. ${g.pick(['KJG', 'SBG', 'PJN'])}${g.r.digits(5)}
NRIC: ${g.ic(pt, a, g.pick(['dash', 'space']))}
Escort officer: Sjn. ${g.P(off, 'other')} (${g.hp(off, 'other', 'dash')})
Hx: T1DM, poor compliance. ${K('LAB', 'RBS 28.4')}, ketones ${K('LAB', '3.1')}.
Sent to ${K('HOSPITAL', 'Hospital Kajang')} ED for DKA workup. Seen earlier by Dr ${g.P(dr, 'doctor', dr.titled)}.`;
    },
  ],
  [
    'school_health',
    (g) => {
      const child = g.person();
      const par = g.person();
      const nurse = g.person('malay', 'F');
      return `PASUKAN KESIHATAN SEKOLAH - RUJUKAN
Murid: ${g.P(child, 'patient')}, Tahun ${g.int(1, 6)}, SK ${g.pick(['Taman Tun', 'Bukit Indah', 'Seri Kembangan'])}
MyKid: ${g.ic(child, g.int(7, 12), g.pick(['plain', 'dash']))}
Masalah: penglihatan kabur (${K('VITAL', 'VA 6/24')} kedua-dua mata), BMI ${K('VITAL', '27.1')}
Ibu/bapa: ${g.P(par, 'relative')}, ${g.hp(par, 'relative', 'dash-space')}
Dirujuk ke klinik optometri. Jururawat: Pn ${g.P(nurse, 'nurse', nurse.call)}`;
    },
  ],
  [
    'blood_donor_letter',
    (g) => {
      const d = g.person();
      const mo = g.person();
      return `PUSAT DARAH NEGARA
${g.date(2)}

${g.P(d, 'patient', d.full.toUpperCase())}
(No. Penderma: D${g.r.digits(7)})

Tuan/Puan,
Hasil saringan darah anda pada ${g.date(2)} menunjukkan ${K('LAB', 'Hb 11.8')} g/dL, di bawah paras minimum untuk menderma. Anda ditangguhkan selama ${K('QUANTITY', '3/12')}.
Sila hubungi kami di ${g.land(null, 'other', '03')} atau e-mel ${g.mailRaw('derma', 'pdn.gov.my')}.

Dr ${g.P(mo, 'doctor')}
Pegawai Perubatan`;
    },
  ],
  [
    'medical_tourism',
    (g) => {
      const pt = g.person('foreign');
      const ag = g.person();
      return `From: ${g.mail(ag, 'other', 'medtravel.co.id')}
Subject: Pasien baru - ${g.P(pt, 'patient')}

Dear IPC team,
Please arrange cardiology consult for ${g.P(pt, 'patient')}, passport ${g.passport(pt, 'ID')}, arriving ${g.date(2)}.
Patient mobile: ${g.fphone(pt, 'ID')}; family in KL: ${g.hp(null, 'relative', 'intl')}.
Prior echo: EF ${K('LAB', '35%')}. On ${K('DOSAGE', 'bisoprolol 5mg')}.
Regards, ${g.P(ag, 'other', ag.call)}`;
    },
  ],
  [
    'speech_therapy',
    (g) => {
      const pt = g.person();
      const mum = g.person(undefined, 'F');
      const st = g.person();
      const a = g.int(2, 8);
      return `SPEECH THERAPY SESSION NOTE ${g.date(0)}
Client: ${g.P(pt, 'patient')} (${K('AGE', `${a} y/o`)}), RN ${g.mrn(g.pick([0, 5, 7]), pt)}
Attended with mother, ${g.P(mum, 'relative', mum.call)}.
Goals: 2-word utterances, joint attention. Progress: using 10 single words.
Home programme given. Next session ${K('QUANTITY', '2/52')}.
Therapist: ${g.P(st, 'other')} (${g.landExt('other')})`;
    },
  ],
  [
    'daa_form',
    (g) => {
      const pt = g.person();
      const wit = g.person();
      const dr = g.person('eponym');
      const a = g.age(20, 80);
      return `DISCHARGE AT OWN RISK (DAOR)
I, ${g.P(pt, 'patient')} (IC ${g.ic(pt, a, 'dash')}), understand that Dr. ${g.P(dr, 'doctor', dr.titled)} has advised me to remain in hospital for ${K('EPONYM', 'Guillain-Barre syndrome')} monitoring. I choose to leave against medical advice.
Witness: ${g.P(wit, 'other')}  ${g.hp(wit, 'other', 'dash')}
Signed: ${g.date(0)} ${g.time()}`;
    },
  ],
  [
    'organ_donation',
    (g) => {
      const pt = g.person();
      const nok = g.person();
      const coord = g.person();
      return `Transplant coordinator note ${g.date(0)}
Potential donor: ${g.P(pt, 'patient')}, ${K('WARD_BED', `ICU bed ${g.int(1, 12)}`)}, brainstem death tests x2 completed.
Family meeting with ${g.P(nok, 'relative')} (${g.pick(['brother', 'wife', 'mother', 'son'])}), contact ${g.hp(nok, 'relative')}/${g.land(nok, 'relative')}.
Family consented to kidney and cornea donation. ${K('LAB', 'Cr 98')}, ${K('LAB', 'HbA1c 5.6')}.
Coordinator: ${g.P(coord, 'other')}, ${g.hp(coord, 'other', 'intl')}`;
    },
  ],
  [
    'ward_whatsapp_ios',
    (g) => {
      const a1 = g.person();
      const a2 = g.person();
      const pt = g.person();
      const d = `${String(g.int(1, 28)).padStart(2, '0')}/${String(g.int(1, 12)).padStart(2, '0')}/2024`;
      return `[${K('DATE', d)}, ${K('TIME', '07:41:12')}] ${g.P(a1, 'doctor', a1.call)}: morning, ${K('WARD_BED', 'bed 22')} ${g.P(pt, 'patient', pt.call)} spiked ${K('VITAL', 'T 38.9')} overnight
[${K('DATE', d)}, ${K('TIME', '07:42:03')}] ${g.P(a2, 'doctor', a2.call)}: cultures sent? ${K('LAB', 'CRP 212')}
[${K('DATE', d)}, ${K('TIME', '07:45:50')}] ${g.P(a1, 'doctor', a1.call)}: yes. escalate to ${K('DOSAGE', 'IV Tazocin 4.5g QID')}
[${K('DATE', d)}, ${K('TIME', '07:47:19')}] ${g.P(a2, 'doctor', a2.call)}: ok. pls update family ${g.hp(null, 'relative', 'dash')} 🙏`;
    },
  ],
  [
    'elderly_home',
    (g) => {
      const pt = g.person();
      const son = g.person(pt.trad === 'malay' ? 'malay' : undefined, 'M');
      const nurse = g.person(undefined, 'F');
      const a = g.age(70, 95);
      return `Rumah Seri Kenangan - resident review
Resident: ${g.P(pt, 'patient')} (${K('AGE', `${a}${pt.sex}`)})
Dementia, bedbound. Pressure sore stage 3 sacrum. ${K('LAB', 'Albumin 26')}.
Son ${g.P(son, 'relative', son.call)} visits monthly; tel ${g.hp(son, 'relative', 'dash')}.
Review by visiting GP Dr ${g.P(g.person(), 'doctor')}. Nurse in charge: Sister ${g.P(nurse, 'nurse', nurse.call)}.`;
    },
  ],
  [
    'eye_clinic',
    (g) => {
      const pt = g.person();
      const dr = g.person();
      return `EYE CLINIC ${g.date(4)}
${g.P(pt, 'patient')}, RN ${g.mrn(undefined, pt)}, ${K('AGE', `${g.int(40, 85)}/${pt.sex}`)}
VA RE ${K('VITAL', '6/18')} LE ${K('VITAL', '6/9')}, IOP ${K('VITAL', '24')}/${K('VITAL', '18')} mmHg
Dx: POAG RE; ${K('EPONYM', 'Horner syndrome')} excluded.
Plan: ${K('DOSAGE', 'latanoprost 0.005% ON')} RE, HVF ${K('QUANTITY', '3/12')}.
Dr. ${g.P(dr, 'doctor', dr.titled)}; pt contact ${g.hp(pt, 'patient', g.pick(['dash', 'intl']))}`;
    },
  ],
  [
    'police_statement_en',
    (g) => {
      const v = g.person();
      const s = g.person();
      const dr = g.person();
      return `MEDICAL REPORT (POLICE REQUEST)
Victim: ${g.P(v, 'patient')}, ${g.ic(v, g.age(18, 60), 'plain')}, ${g.hp(v, 'patient', 'dash')}
Alleged assailant named by victim: ${g.P(s, 'other')}
Injuries: fracture R nasal bone, periorbital haematoma. ${K('VITAL', 'GCS 15')}.
Report prepared by Dr. ${g.P(dr, 'doctor')} on ${g.date(2)}.`;
    },
  ],
  [
    'phone_probe_b',
    (g) => {
      const pt = g.person();
      return `Contact list for ${g.P(pt, 'patient')}:
H/P: ${g.hp(pt, 'patient', 'dash')}/ ${g.land(pt, 'patient', '03')}
Tel:-${g.hp(pt, 'relative', 'dash')}
Hp.${g.hp(pt, 'relative', 'plain')} (son)`;
    },
  ],
  [
    'discharge_sabah',
    (g) => {
      const pt = g.person(g.pick(['kadazan', 'kadazan', 'iban']));
      const dr = g.person();
      const nok = g.person(pt.trad === 'iban' ? 'iban' : 'kadazan');
      const a = g.age(20, 80);
      return `RINGKASAN DISCAJ - ${K('HOSPITAL', g.pick(['Hospital Keningau', 'Hospital Beaufort', 'Hospital Sri Aman']))}
${g.P(pt, 'patient')}, ${K('AGE', `${a} thn`)}, ${g.ic(pt, a, 'dash')}
Dx: leptospirosis (${K('ICD10', 'A27.9')}), AKI resolved. ${K('LAB', 'Cr 132')} at discharge.
Ubat: ${K('DOSAGE', 'T. doxycycline 100mg BD')} x ${K('QUANTITY', '5 days')}
Waris: ${g.P(nok, 'relative')} ${g.hp(nok, 'relative')}
Dr ${g.P(dr, 'doctor', dr.titled)}`;
    },
  ],
  [
    'iban_longhouse',
    (g) => {
      const pt = g.person('iban');
      const tr = g.person('iban', 'M');
      const a = g.age(40, 85);
      return `Lawatan rumah panjai ${K('PLACE', 'Ulu Skrang')} ${g.date(1)}
${g.P(pt, 'patient')} (${K('AGE', `${a}${pt.sex}`)}) - HPT, DM. ${g.bp()}, ${K('LAB', 'RBS 14.2')}
Ubat habis ${K('QUANTITY', '2/52')}. Diberi bekalan ${K('QUANTITY', '1/12')}.
Tuai rumah ${g.P(tr, 'other', tr.call)} bantu atur transport ke klinik. Tel tuai rumah: ${g.hp(tr, 'other', 'dash')}`;
    },
  ],
  [
    'insurer_refund_b',
    (g) => {
      const pt = g.person();
      const ex = g.person();
      return `To: ${g.mail(pt, 'patient')}
Cc: ${g.mail(ex, 'other', g.pick(['prudential.com.my', 'etiqa.com.my', 'zurich.com.my']))}
Subject: Claim settled

Dear ${g.P(pt, 'patient')},
Your claim for ${K('HOSPITAL', 'Hospital Pakar Sultanah Fatimah')} has been approved. ${K('QUANTITY', 'RM 2,310.00')} was reversed to card ${g.card(pt, g.pick(['visa', 'mc'] as const), g.pick([' ', '-', ''] as const))} and ${K('QUANTITY', 'RM 480.00')} credited to ${g.pick(['Bank Rakyat', 'Maybank', 'Public Bank'])} savings ${g.acct(pt)}.
Regards,
${g.P(ex, 'other')}`;
    },
  ],
  [
    'expat_admission_b',
    (g) => {
      const pt = g.person(g.pick(['western', 'foreign']));
      const spouse = g.person(g.pick(['western', 'foreign']));
      const c = pt.trad.startsWith('foreign') ? 'IN' : 'AU';
      return `INTERNATIONAL PATIENT ADMISSION ${g.date(0)}
${g.P(pt, 'patient')} | Passport No: ${g.passport(pt, c)} | ${g.mail(pt, 'patient', 'outlook.com')}
Local mobile ${g.hp(pt, 'patient', 'intl')}, home ${g.fphone(pt, c as 'AU')}
Spouse ${g.P(spouse, 'relative')} (${g.mail(spouse, 'relative', 'gmail.com')})
Deposit by Amex ${g.card(pt, 'amex')}
Admitted for ${K('EPONYM', "Bell's palsy")} workup, ${K('WARD_BED', 'Room 805')}.`;
    },
  ],
];
