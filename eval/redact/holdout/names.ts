/**
 * Synthetic people for the held-out corpus. Each list mixes common names with invented but plausible ones, written
 * for this corpus (they are deliberately NOT copied from the engine's gazetteers). Every list is split in two
 * disjoint halves (even / odd positions): pool A feeds the tuning part of the corpus, pool B the blind third.
 */
import type { Rng } from './lib';

export interface Person {
  /** Full name as first written. */
  full: string;
  /** How colleagues refer to the person by name alone (given name, or surname with a title). */
  call: string;
  /** Form used after a title (Mr Tan, Dr Kavitha, Pn Hasnah). */
  titled: string;
  trad: string;
  sex: 'M' | 'F';
  /** Parts usable in an e-mail address. */
  mailA: string;
  mailB: string;
}

const L = (s: string) =>
  s
    .split('|')
    .map((x) => x.trim())
    .filter(Boolean);

const MALAY_M = L(
  `Hafiz|Zulhazmi|Azlan|Afizul|Faizal|Shahrimi|Rizal|Norhisyam|Syahmi|Azrihan|Amirul|Mohsinudin|Khairul Nizam|Iqwan|Firdaus|Zuhdi|Zulkifli|Afiqi|Hakim|Adham|Nazri|Luqmanul Hakim|Shahrul|Syazwan|Iskandar|Hairulnizam|Ikhwan|Rozaidi|Rosli|Fakhrurazi|Mukhlis|Aqashah|Nazhif|Ruzaini|Khirul Anuar|Saifulizan|Ezuan|Hadzrul|Shazwan|Ammar Haziq|Danish Irfan|Nik Fahmi|Aidil Fitri|Hazwan|Kamarulzaman|Shamsul Bahri|Ridzwan|Wafiuddin|Zahiruddin|Mohd Taufiq`,
);
const MALAY_F = L(
  `Aisyah|Nurfarzana|Hasnah|Hazrinah|Farah|Syazlin|Nadia|Izzatul Akmar|Zainab|Ainul Mardhiah|Rohana|Nurqistina|Suraya|Aleeya|Azura|Damia|Hanani|Wardatul|Rosnita|Zuhaila|Nurfadhilah|Asnidar|Kamsiah|Haslizawati|Normaziah|Sabariah|Rohaiza|Juwita|Safrina|Nurhazwani|Atikah|Sumaiyah|Raihanah|Fazreen|Noradilah|Maisarah|Syafiqah|Zurinah|Hidayah|Adawiyah|Nabilah|Marlissa|Anis Sofea|Qistina|Liyana|Hartini|Rusnani|Salwani|Mazlinda|Shahida`,
);
const MALAY_FATHER = L(
  `Ismail|Abdullah|Hamid|Yusof|Osman|Jaafar|Kassim|Zakaria|Daud|Salleh|Mansor|Rahman|Ghazali|Harun|Shamsudin|Mat Isa|Che Lah|Hashim|Ariffin|Jamaluddin|Baharom|Sulaiman|Rasid|Samsuri|Kamaruzzaman|Tajul Ariffin|Mat Deris|Awang Kechik|Zainudin|Mustaffa|Hanapiah|Sahak|Jusoh|Embong|Ramlee|Ismadi|Rosdi|Zulkarnain|Nordin|Hamzah`,
);

const CN_SUR = L(
  `Tan|Lim|Lee|Ng|Wong|Chong|Chan|Teoh|Ooi|Khoo|Goh|Lau|Yap|Chin|Foo|Liew|Kok|Low|Ho|Ting|Tiong|Hii|Ngu|Wee|Yeoh|Cheah|Loke|Soo|Siow|Phang|Kuan|Tee|Heng|Sim|Pang|Lai|Chua|Tay|Leong|Kong|Yong|Lum|Koay|Ong`,
);
const CN_GIVEN = L(
  `Wei Ming|Tzer Jhen|Siew Ling|Yeu Shern|Kah Hoe|Khye Ghee|Mei Qi|Chern Wei|Zhi Hao|Kuok Hing|Jia Wen|Nguong Kiong|Hui Xin|Poh Geok|Ah Seng|Boon Keat|Kwee Lan|Sook Yee|Yong Sheng|Jun Kit|Wai Kit|Xin Yi|Shu Ting|Kar Mun|Lai Peng|Seow Hwa|Chui Ying|Yi Jie|Hong Kiat|Teck Soon|Ern Qi|Jing Xuan|Sing Hua|Ching Ling|Yik Hern|Zi Yang|Hsien Loong|Mun Yee|Kean Wah|Peck Ee`,
);
const CN_WESTERN_M = L(`Jason|Melvin|Bryan|Adrian|Ivan|Gareth|Desmond|Marcus|Terrence|Kelvin|Nicholas|Benedict|Darren|Eugene|Alvin`);
const CN_WESTERN_F = L(`Cheryl|Vanessa|Shermaine|Pearlyn|Eunice|Jolene|Winnie|Charmaine|Audrey|Clarissa|Rachel|Michelle|Jocelyn|Shirlynn`);

const IN_M = L(
  `Muthu|Thirunyanam|Ganesan|Mugilan|Suresh|Thamilvaanan|Ravi|Ilamaran|Saravanan|Kathirvel|Senguttuvan|Arivazhagan|Nedumaran|Vetrivel|Kumaresan|Tharmalingam|Sanjeevan|Pugalenthi|Rajasegar|Kishanthan|Devendran|Ilango|Prabakaran|Jeyaseelan|Logendran|Mahindran|Sivabalan|Thinakaran|Vinothan|Yuvanesh`,
);
const IN_F = L(
  `Kavitha|Ilavenil|Priya|Kaviyarasi|Senthamarai|Revathy|Nithyashree|Yazhini|Kayalvizhi|Thamaraiselvi|Pavithra|Malarkodi|Anbuselvi|Sharmilah|Dharshana|Vithya|Tamilarasi|Kalaivani|Logeswary|Sugirtha|Thevaki|Pushpaleela|Jeyanthi|Mageswary|Nirmaladevi|Vasanthamalar|Kogilam|Sasirekha`,
);
const IN_FATHER = L(
  `Muniandy|Ramasamy|Subramaniam|Krishnan|Perumal|Velayutham|Arumugam|Sinnathamby|Karuppiah|Maniam|Kuppusamy|Rengasamy|Letchumanan|Palanisamy|Govindasamy|Chellappah|Thangarajoo|Veerappan|Selvarajoo|Annamalai|Sivanandam|Marimuthu|Ponnusamy|Manickavasagam`,
);
const SIKH_M = L(`Jasdeep|Manvir|Navin|Harjeet|Sukhbir|Gurveer|Amarpal|Inderpal|Taranjit|Jaskaran`);
const SIKH_F = L(`Harveen|Simranjeet|Kulvinder|Manpreet|Rajwant|Navneet|Amandeep|Jaswinder|Gurleen|Baljinder`);
const SIKH_SUR = L(`Sandhu|Grewal|Gill|Dhillon|Sidhu|Bains|Randhawa|Brar|Sekhon|Kahlon`);
const MALAYALEE = L(
  `Sreekumar Nair|Anjaly Menon|Thomas Varghese|Bincy Kurian|Rajeev Pillai|Lekshmi Nair|Jomon Mathew|Soumya Thomas|Vineeth Menon|Divya Pillai`,
);

const IBAN_GIVEN_M = L(
  `Ngumbang|Sumbang|Jenang|Belayang|Jimbun|Mering|Ringkai|Entigu|Jackson|Robin|Stanley|Ubong|Lenggang|Sabang|Kalong|Ngelai|Tuyang|Jugah|Nyandang|Bujang`,
);
const IBAN_GIVEN_F = L(`Lidia|Dayana|Winnie|Sendai|Linda|Magdalene|Jelia|Rinda|Sumbai|Ngelayang|Endu|Siah|Mariam|Christina|Janet|Selina`);
const IBAN_FATHER = L(
  `Jelapi|Lunsong|Ugi|Nyuak|Tegong|Sengkang|Ngelambai|Tambai|Baling|Ujat|Gerinang|Unchat|Limbang|Lenggu|Sajang|Jimbai|Ensamat|Mawang|Nyaru|Kanyan|Ranggau|Tugong`,
);
const BIDAYUH = L(`Nyomek Sibeng|Simon Jinu|Ritah Sadok|Jerry Bikok|Dayung Nyabong|Sylvia Jemut|Jaman Ranyai|Marina Sagen`);

const KD_GIVEN_M = L(`Gidoh|Jumilin|Ambrose|Ronnie|Mojilip|Joanes|Felix|Malvin|Juanis|Ejin|Bonifasius|Ansari|Gordon|Justin|Maxwell|Gimbang`);
const KD_GIVEN_F = L(`Julinah|Rosdiana|Stella|Sitiah|Jaineh|Lorna|Vivian|Elvina|Roselyn|Juliet|Evelyn|Lucy|Rinah|Agnes`);
const KD_SUR = L(
  `Sumpiton|Ongkusit|Gimpuli|Majitol|Sinsugan|Gumbilai|Lingkatan|Sabanal|Tangkoyon|Gindau|Sungkit|Ladsou|Bulangkak|Golumpi|Mantaring|Sapinggi|Kinsoi|Mojinun|Rumpang|Gontulis|Sipangkui|Ansibin|Kiongsuk|Linggawan`,
);
const BAJAU = L(`Ahmad Jalih bin Damsah|Sarahiah binti Ebbong|Hasdin bin Sabturani|Nurlela binti Jamalul|Arsad bin Tumpang|Masitah binti Ladja`);

const OA = L(
  `Bah Sepan|Yam Kenyot|Along a/l Bah Riyat|Rosmini a/p Bah Uda|Kamaruddin a/l Hitam|Ramli anak Ajoi|Bah Kenyong a/l Pandak Ngah|Yam Lipah a/p Bah Tadu|Ajis a/l Ngah Salleh|Wa Inah a/p Bah Lapit|Sudin anak Chepeh|Tijah binti Kemoi`,
);

const NEPALI = L(
  `Bir Bahadur Gurung|Sita Kumari Rai|Dil Maya Tamang|Ram Prasad Adhikari|Kiran Thapa Magar|Suman Shrestha|Nir Bahadur Limbu|Ganga Maya Sunuwar|Pemba Lhamu Sherpa|Dhan Bahadur Karki`,
);
const BANGLA = L(
  `Md. Shohag Mia|Abul Kalam Azad|Rubel Hossain|Rokeya Begum|Jahirul Islam|Sohel Rana|Md. Arifuzzaman|Shapla Akter|Monirul Haque|Rashida Khatun`,
);
const MYANMAR = L(`Zaw Min Htet|Nang Seng Kham|Hnin Ei Phyu|Kyaw Zin Oo|Aung Ko Latt|Thet Naing Soe|Saw Eh Htoo|Nilar Win|Min Khant Kyaw|Su Myat Noe`);
const INDO = L(
  `Slamet Riyadi|Ni Komang Ayu Lestari|Sri Wahyuni|Agus Setiawan|Dedi Kurniawan|Yohanes Ola Kleden|Wayan Sudarma|Rina Marlina|Bambang Sutejo|Eka Puspitasari`,
);
const FILIPINO = L(`Jerome Dizon|Maricar Bautista|Rowena Dela Cruz|Arnel Macaraeg|Jhun Pascual|Liezl Manalo|Rodel Soriano|Marivic Tolentino`);
const OTHER_FOREIGN = L(
  `Nguyen Thi Hoa|Tran Van Minh|Muhammad Waqar Ahmed|Shahzad Akhtar|Rakesh Kumar Yadav|Sunita Devi|Somchai Kaewpradit|Nattaya Srisawat|Zhang Weiqiang|Liu Yanping`,
);

const WEST_GIVEN_M = L(`Fergus|Hamish|Oliver|Matthias|Declan|Rupert|Callum|Torsten|Gideon|Lachlan|Alistair|Bartholomew|Crispin|Ewan`);
const WEST_GIVEN_F = L(`Imogen|Sinead|Harriet|Annelise|Philippa|Eloise|Niamh|Beatrix|Rosalind|Henrietta|Ottilie|Saoirse|Clementine|Maren`);
const WEST_SUR = L(
  `McAllister|Cartwright|Thorne|Whitcombe|Penhaligon|Kessler|Vermeulen|Hargreaves|Ashdown|Fairbairn|Lindqvist|Pemberton-Hale|Okonkwo|Brannigan|Delacroix|Fitzwilliam`,
);
/** Surnames that are also clinical eponyms (Dr Graves, Dr Paget): the issue the reviewer found. */
const EPONYM_SUR = L(`Graves|Addison|Paget|Parkinson|Still|Foley|Cushing|Bell|Hodgkin|Wilson|Hunter|Barrett|Bowen|Marfan|Crohn|Osler|Horner|Turner`);
const EURASIAN = L(`Gerard de Costa|Melissa D'Cruz|Brian Theseira|Clement Sequerah|Sharon De Silva|Joachim Nonis`);

function half<T>(xs: readonly T[], pool: 'A' | 'B'): T[] {
  return xs.filter((_, i) => (i % 2 === 0) === (pool === 'A'));
}

export class People {
  private used = new Set<string>();
  constructor(
    private readonly r: Rng,
    private readonly pool: 'A' | 'B',
  ) {}

  private h<T>(xs: readonly T[]): T {
    return this.r.pick(half(xs, this.pool));
  }

  /** A person of a random (Malaysia-weighted) tradition. */
  any(): Person {
    const t = this.r.pick([
      'malay',
      'malay',
      'malay',
      'malay',
      'chinese',
      'chinese',
      'chinese',
      'indian',
      'indian',
      'iban',
      'kadazan',
      'western',
      'sikh',
      'orang_asli',
      'foreign',
    ]);
    return this.of(t);
  }

  of(t: string, sex: 'M' | 'F' = this.r.chance(0.5) ? 'M' : 'F'): Person {
    for (let k = 0; k < 50; k++) {
      const p = this.make(t, sex);
      if (!this.used.has(p.full) && !this.used.has(p.call)) {
        this.used.add(p.full);
        this.used.add(p.call);
        return p;
      }
    }
    return this.make(t, sex);
  }

  reset(): void {
    this.used.clear();
  }

  private make(t: string, sex: 'M' | 'F'): Person {
    const r = this.r;
    switch (t) {
      case 'malay': {
        const g = this.h(sex === 'M' ? MALAY_M : MALAY_F);
        const f = this.h(MALAY_FATHER);
        const pre =
          sex === 'M'
            ? r.pick(['', '', 'Mohd ', 'Muhammad ', 'Muhd ', 'Ahmad ', 'Wan ', 'Nik ', 'Syed '])
            : r.pick(['', '', 'Siti ', 'Nur ', 'Nurul ', 'Wan ', 'Sharifah ', 'Puteri ']);
        const conn = sex === 'M' ? r.pick(['bin', 'bin', 'bin', 'b.', 'Bin', 'BIN']) : r.pick(['binti', 'binti', 'bt.', 'bt', 'Binti', 'bte']);
        const fpre = pre === 'Wan ' ? 'Wan ' : pre === 'Syed ' ? 'Syed ' : pre === 'Sharifah ' ? 'Syed ' : r.chance(0.15) ? 'Haji ' : '';
        let full = `${pre}${g} ${conn} ${fpre}${f}`;
        if (conn === 'BIN') full = full.toUpperCase();
        const call = g.split(' ')[0];
        return { full, call, titled: call, trad: 'malay', sex, mailA: call, mailB: f.split(' ')[0] };
      }
      case 'chinese': {
        const s = this.h(CN_SUR);
        const g = this.h(CN_GIVEN);
        if (r.chance(0.3)) {
          const w = this.h(sex === 'M' ? CN_WESTERN_M : CN_WESTERN_F);
          const full = r.chance(0.5) ? `${w} ${s} ${g}` : `${w} ${s}`;
          return { full, call: w, titled: s, trad: 'chinese_western', sex, mailA: w, mailB: s };
        }
        return { full: `${s} ${g}`, call: s, titled: s, trad: 'chinese', sex, mailA: g.replace(' ', ''), mailB: s };
      }
      case 'indian': {
        if (r.chance(0.15)) {
          const full = this.h(MALAYALEE);
          const [a, b] = full.split(' ');
          return { full, call: a, titled: a, trad: 'indian', sex, mailA: a, mailB: b };
        }
        const g = this.h(sex === 'M' ? IN_M : IN_F);
        const f = this.h(IN_FATHER);
        const conn = sex === 'M' ? r.pick(['a/l', 'a/l', 's/o', 'A/L']) : r.pick(['a/p', 'a/p', 'd/o', 'A/P']);
        return { full: `${g} ${conn} ${f}`, call: g, titled: g, trad: 'indian', sex, mailA: g, mailB: f };
      }
      case 'sikh': {
        const g = this.h(sex === 'M' ? SIKH_M : SIKH_F);
        const s = this.h(SIKH_SUR);
        const full = sex === 'M' ? r.pick([`${g} Singh`, `${g} Singh ${s}`]) : r.pick([`${g} Kaur`, `${g} Kaur a/p ${this.h(SIKH_M)} Singh`]);
        return { full, call: g, titled: g, trad: 'indian_sikh', sex, mailA: g, mailB: s };
      }
      case 'iban': {
        if (r.chance(0.2)) {
          const full = this.h(BIDAYUH);
          const [a, b] = full.split(' ');
          return { full, call: a, titled: a, trad: 'bidayuh', sex, mailA: a, mailB: b };
        }
        const g = this.h(sex === 'M' ? IBAN_GIVEN_M : IBAN_GIVEN_F);
        const f = this.h(IBAN_FATHER);
        const conn = r.pick(['anak', 'anak', 'ak', 'ak.', 'Anak', 'AK']);
        return { full: `${g} ${conn} ${f}`, call: g, titled: g, trad: 'iban', sex, mailA: g, mailB: f };
      }
      case 'kadazan': {
        if (r.chance(0.15)) {
          const full = this.h(BAJAU);
          const call = full.split(' ')[0] === 'Ahmad' ? 'Jalih' : full.split(' ')[0];
          return { full, call, titled: call, trad: 'bajau', sex, mailA: call, mailB: 'sabah' };
        }
        const g = this.h(sex === 'M' ? KD_GIVEN_M : KD_GIVEN_F);
        const s = this.h(KD_SUR);
        return { full: `${g} ${s}`, call: g, titled: s, trad: 'kadazan_dusun', sex, mailA: g, mailB: s };
      }
      case 'orang_asli': {
        const full = this.h(OA);
        const first =
          full.split(' ')[0] === 'Bah' || full.split(' ')[0] === 'Yam' || full.split(' ')[0] === 'Wa'
            ? full.split(' ').slice(0, 2).join(' ')
            : full.split(' ')[0];
        return { full, call: first, titled: first, trad: 'orang_asli', sex, mailA: 'x', mailB: 'y' };
      }
      case 'foreign': {
        const src = r.pick([NEPALI, BANGLA, MYANMAR, INDO, FILIPINO, OTHER_FOREIGN]);
        const full = this.h(src);
        const parts = full.split(' ');
        const trad =
          src === NEPALI
            ? 'foreign:Nepali'
            : src === BANGLA
              ? 'foreign:Bangladeshi'
              : src === MYANMAR
                ? 'foreign:Myanmar'
                : src === INDO
                  ? 'foreign:Indonesian'
                  : src === FILIPINO
                    ? 'foreign:Filipino'
                    : 'foreign:other';
        const call = src === MYANMAR ? full : parts[0] === 'Md.' ? parts[1] : parts[0];
        return {
          full,
          call,
          titled: src === MYANMAR ? full : parts[parts.length - 1],
          trad,
          sex,
          mailA: parts[0].replace('.', ''),
          mailB: parts[parts.length - 1],
        };
      }
      case 'eponym': {
        const s = this.h(EPONYM_SUR);
        const g = this.h(sex === 'M' ? WEST_GIVEN_M : WEST_GIVEN_F);
        return { full: `${g} ${s}`, call: g, titled: s, trad: 'western_eponym', sex, mailA: g, mailB: s };
      }
      case 'eurasian': {
        const full = this.h(EURASIAN);
        const parts = full.split(' ');
        return { full, call: parts[0], titled: parts.slice(1).join(' '), trad: 'eurasian', sex, mailA: parts[0], mailB: parts[parts.length - 1] };
      }
      default: {
        const g = this.h(sex === 'M' ? WEST_GIVEN_M : WEST_GIVEN_F);
        const s = this.h(WEST_SUR);
        return { full: `${g} ${s}`, call: g, titled: s, trad: 'western', sex, mailA: g, mailB: s };
      }
    }
  }
}
