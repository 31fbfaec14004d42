import type { Transaction } from 'kysely';
import { companyDepartment } from '../access/tenancy.js';
import type { DB } from '../db/schema.js';
import type { RecordOwner, Row } from '../lowcode/rows.js';
import { DEPT } from './accounts.js';

/**
 * Business records of the low-code views, each owned by its company: a company's warehouses, vehicles,
 * contracts, stock-ins and -outs, inquiries, disposal and logistics orders lie in its own region and were
 * created by a user of that company (create_by, create_company, create_dept), or by nobody for the
 * companies without accounts. The records tell one story: a producer stocks waste into its warehouses,
 * ships it to a disposer it holds a contract with (a stock-out, a disposal order under that contract
 * naming the carrier, and that carrier's logistics order that moves it), and asks disposers for quotes;
 * contracts and orders name their parties by company id; messages go to the
 * departments that handle them. Dates are relative to the day of seeding (the last 120 days); the
 * generator is seeded, so every fresh database gets the same records.
 */

function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
    decimal: (min: number, max: number, digits: number) => Number((min + next() * (max - min)).toFixed(digits)),
    chance: (p: number) => next() < p,
    digits: (n: number) => Array.from({ length: n }, () => int(0, 9)).join(''),
  };
}
type Random = ReturnType<typeof random>;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
export const timeText = (d: Date) => `${dateText(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
const compact = (d: Date) => dateText(d).replace(/-/g, '');
const daysFromNow = (n: number) => new Date(Date.now() + n * DAY);

/** A moment `daysAgo` days back during working hours, never in the future. */
function workingMoment(r: Random, daysAgo: number): Date {
  const now = Date.now();
  const d = new Date(now - daysAgo * DAY);
  const [hour, minute, second] = [r.int(8, 17), r.int(0, 59), r.int(0, 59)];
  d.setHours(hour, minute, second, 0);
  // A moment still to come today is moved before now without another draw: the random values that follow
  // are the same at any hour, so the seeded records are too.
  return d.getTime() > now ? new Date(now - (minute * 60 + second + 1) * 1000) : d;
}
const later = (d: Date, ms: number) => new Date(Math.min(Date.now(), d.getTime() + ms));

// ----- reference data -----

/** Wastes the companies stock in: class, the name their handlers write, and the going disposal price (元/吨). */
const WASTES: Record<string, { category: string; name: string; price: [number, number] }> = {
  '900-249-08': { category: 'HW08', name: '废矿物油', price: [1800, 2600] },
  '900-214-08': { category: 'HW08', name: '废润滑油', price: [1600, 2400] },
  '900-218-08': { category: 'HW08', name: '废液压油', price: [1700, 2500] },
  '900-402-06': { category: 'HW06', name: '废有机溶剂', price: [2800, 3800] },
  '264-011-12': { category: 'HW12', name: '染料涂料废物', price: [3500, 4800] },
  '900-252-12': { category: 'HW12', name: '废油漆渣', price: [3600, 5000] },
  '336-064-17': { category: 'HW17', name: '电镀污泥', price: [2800, 4200] },
  '336-054-17': { category: 'HW17', name: '镀镍废槽液', price: [3000, 4400] },
  '772-003-18': { category: 'HW18', name: '焚烧飞灰', price: [2200, 3200] },
  '900-052-31': { category: 'HW31', name: '废铅蓄电池', price: [800, 1200] },
  '900-300-34': { category: 'HW34', name: '废酸液', price: [1500, 2600] },
  '900-399-35': { category: 'HW35', name: '废碱液', price: [1500, 2400] },
  '900-041-49': { category: 'HW49', name: '废包装桶', price: [2600, 3600] },
  '900-039-49': { category: 'HW49', name: '废活性炭', price: [2600, 3400] },
  '900-047-49': { category: 'HW49', name: '实验室废物', price: [3800, 5200] },
};

/** Top-level disposal processes (by code) that take each class of waste. */
const PROCESS_OF: Record<string, string[]> = {
  HW06: ['D10', 'R'],
  HW08: ['R', 'D10'],
  HW12: ['D10'],
  HW17: ['D9', 'D1'],
  HW18: ['D1'],
  HW31: ['R'],
  HW34: ['D9'],
  HW35: ['D9'],
  HW49: ['D10'],
};

const NAMES = '张伟 王芳 李强 刘洋 陈静 杨帆 赵磊 黄丽 周杰 吴敏 徐涛 孙燕 马超 朱琳 胡斌 郭亮'.split(' ');

/** What the records need to know of a company beyond its row: its own details and what it does. */
interface Profile {
  /** telephone area code of its city */
  area: string;
  domain: string;
  /** licence plates of its city */
  plate: string;
  /** wastes it stocks in (national catalogue codes) */
  wastes: string[];
  /** stock-ins over the seeded period, and the range of their tons */
  stockIns: number;
  tons: [number, number];
}

/** What each company stocks in, by company name: its wastes (national catalogue codes). */
const WASTES_OF: Record<string, string[]> = {
  苏州华瑞精细化工有限公司: ['900-249-08', '900-402-06', '264-011-12', '900-041-49', '900-039-49', '900-047-49'],
  江苏绿源环保科技有限公司: ['772-003-18', '900-039-49'],
  南京顺安危险品运输有限公司: [],
  无锡新吴区危废集中收集点: ['900-214-08', '900-052-31', '900-041-49', '900-047-49'],
  常州东方电镀有限公司: ['336-064-17', '336-054-17', '900-300-34', '900-041-49'],
  南通清源固废处置有限公司: ['772-003-18'],
  无锡新吴微电子材料有限公司: ['900-402-06', '900-300-34', '900-041-49', '900-047-49'],
  常州武进恒达表面处理有限公司: ['336-064-17', '900-300-34', '900-399-35'],
  宁波北仑顺达汽车维修有限公司: ['900-214-08', '900-252-12', '900-218-08', '900-052-31', '900-041-49'],
  上海金山环境资源处置有限公司: [],
  苏州安运危险品物流有限公司: [],
};

/** By company name (the accounts and business seeds create the companies): area code, mail domain, plate prefix, stock-ins, tons. */
const PROFILE_ROWS: [name: string, area: string, domain: string, plate: string, stockIns: number, tons: [number, number]][] = [
  ['苏州华瑞精细化工有限公司', '0512', 'huarui-chem.cn', '苏E', 18, [0.5, 12]],
  ['江苏绿源环保科技有限公司', '025', 'lvyuan-env.cn', '苏A', 5, [3, 25]],
  ['南京顺安危险品运输有限公司', '025', 'shunan-trans.cn', '苏A', 0, [0, 0]],
  ['无锡新吴区危废集中收集点', '0510', 'wx-collect.cn', '苏B', 10, [0.5, 6]],
  ['常州东方电镀有限公司', '0519', 'dongfang-ep.cn', '苏D', 10, [1, 20]],
  ['南通清源固废处置有限公司', '0513', 'qingyuan-sw.cn', '苏F', 3, [2, 15]],
  ['无锡新吴微电子材料有限公司', '0510', 'xw-micro.cn', '苏B', 5, [0.2, 4]],
  ['常州武进恒达表面处理有限公司', '0519', 'hengda-st.cn', '苏D', 5, [0.5, 8]],
  ['宁波北仑顺达汽车维修有限公司', '0574', 'sd-autofix.cn', '浙B', 4, [0.2, 3]],
  ['上海金山环境资源处置有限公司', '021', 'jsenv-sh.cn', '沪A', 0, [0, 0]],
  ['苏州安运危险品物流有限公司', '0512', 'anyun-wl.cn', '苏E', 0, [0, 0]],
];
const PROFILES: Record<string, Profile> = Object.fromEntries(
  PROFILE_ROWS.map(([name, area, domain, plate, stockIns, tons]) => [
    name,
    { area, domain, plate, wastes: WASTES_OF[name] ?? [], stockIns, tons },
  ]),
);

interface Company {
  id: number;
  name: string;
  type: string;
  /** comma-joined region codes, province first */
  region: string;
  regionFmt: string;
  district: string;
  address: string;
  contact: string;
  phone: string;
  /** the company's department: its users' */
  deptId: number;
  owner: RecordOwner;
  profile: Profile;
  linkmen: { id: number; name: string; phone: string | null; position: string | null }[];
}

interface Users {
  byName: Map<
    string,
    { id: number; username: string; nick: string; phone: string; email: string; companyId: number | null; deptId: number | null }
  >;
}

async function loadCompanies(trx: Transaction<DB>): Promise<{ companies: Company[]; users: Users }> {
  const rows = await trx
    .selectFrom('company')
    .select(['id', 'name', 'type', 'region', 'region_fmt', 'address', 'contact_name', 'contact_phone'])
    .orderBy('id')
    .execute();
  const userRows = await trx
    .selectFrom('sys_user')
    .select(['id', 'username', 'nick_name', 'phone', 'email', 'company_id', 'dept_id'])
    .orderBy('id')
    .execute();
  const linkmen = await trx.selectFrom('company_linkman').select(['id', 'company_id', 'name', 'phone', 'position']).orderBy('id').execute();
  // A company without an account still has its own department, which its records were created in.
  const ownDept = new Map<number, number>();
  for (const c of rows) if (PROFILES[c.name]) ownDept.set(c.id, await companyDepartment(trx, c.id));
  const companies = rows.flatMap((c): Company[] => {
    const profile = PROFILES[c.name];
    if (!profile) return [];
    const user = userRows.find((u) => u.company_id === c.id);
    const deptId = user?.dept_id ?? (ownDept.get(c.id) as number);
    // A company without an account: its records were brought in for it, by nobody on this platform.
    const owner: RecordOwner = { id: user?.id ?? null, username: user?.username ?? (null as unknown as string), companyId: c.id, deptId };
    const region = c.region ?? '';
    return [
      {
        id: c.id,
        name: c.name,
        type: c.type,
        region,
        regionFmt: c.region_fmt ?? '',
        district: region.split(',').pop() ?? '',
        address: c.address ?? '',
        contact: c.contact_name ?? '',
        phone: c.contact_phone ?? '',
        deptId,
        owner,
        profile,
        linkmen: linkmen.filter((l) => l.company_id === c.id),
      },
    ];
  });
  const byName = new Map(
    userRows.map((u) => [
      u.username,
      {
        id: u.id,
        username: u.username,
        nick: u.nick_name,
        phone: u.phone ?? '',
        email: u.email ?? '',
        companyId: u.company_id,
        deptId: u.dept_id,
      },
    ]),
  );
  return { companies, users: { byName } };
}

const mobile = (r: Random) => `1${r.pick(['3', '5', '7', '8', '9'])}${r.digits(9)}`;
const PLATE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const plateOf = (r: Random, prefix: string) => `${prefix}${Array.from({ length: 5 }, () => r.pick([...PLATE_CHARS])).join('')}`;

/** A valid 18-digit resident identity number (GB 11643 checksum) registered in `district`. */
function idCard(r: Random, district: string): string {
  const birth = new Date(Date.UTC(r.int(1965, 1998), r.int(0, 11), r.int(1, 28)));
  const base = `${district}${birth.getUTCFullYear()}${pad(birth.getUTCMonth() + 1)}${pad(birth.getUTCDate())}${r.digits(3)}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(base[i]), 0);
  return base + '10X98765432'[sum % 11];
}

// ----- the records -----

/** A record to insert: its fields (resolved once the records it refers to have ids), when and by whom. */
export interface Planned {
  at: Date;
  owner: RecordOwner;
  fields: () => Row;
}

/** Records of every business view by componentName, each list in the order to insert; ids of inserted records by plan. */
export interface Plan {
  order: string[];
  records: Map<string, Planned[]>;
  ids: Map<Planned, number>;
}

/** What the record builders look up once the records they refer to are planned or inserted. */
interface Refs {
  ids: Map<Planned, number>;
  /** top-level disposal process ids by code */
  processIds: Map<string, number>;
  /** which vehicle moved each shipped order */
  transport: Map<Order, Vehicle>;
}

interface Warehouse extends Planned {
  company: Company;
  name: string;
  address: string;
  unloading: boolean;
}

/** Warehouses: where each company keeps its waste, at its own site; disposers' unloading points receive it. */
const WAREHOUSES: [company: string, name: string, place: string, unloading: boolean, linkman: string | null][] = [
  ['苏州华瑞精细化工有限公司', '一号危废暂存库', '厂区东侧', false, '李秀英'],
  ['苏州华瑞精细化工有限公司', '二号危废暂存库（液态）', '厂区北门', false, '李秀英'],
  ['江苏绿源环保科技有限公司', '焚烧车间卸料区', '焚烧车间', true, '赵永刚'],
  ['江苏绿源环保科技有限公司', '物化车间卸料区', '物化车间', true, '赵永刚'],
  ['江苏绿源环保科技有限公司', '甲类危废贮存库', '3号库', false, null],
  ['无锡新吴区危废集中收集点', '新吴集中收集贮存库', '', true, '钱伟'],
  ['无锡新吴区危废集中收集点', '废铅蓄电池专用贮存间', '西区', false, '钱伟'],
  ['常州东方电镀有限公司', '电镀污泥仓库', '', false, '吴海燕'],
  ['常州东方电镀有限公司', '废槽液贮存区', '二期', false, '吴海燕'],
  ['南通清源固废处置有限公司', '综合卸料平台', '', true, '郑国华'],
  ['南通清源固废处置有限公司', '废酸贮罐区', '罐区', false, null],
  ['无锡新吴微电子材料有限公司', '危废暂存间', '', false, null],
  ['常州武进恒达表面处理有限公司', '电镀污泥暂存库', '', false, null],
  ['宁波北仑顺达汽车维修有限公司', '废机油暂存间', '', false, null],
  ['上海金山环境资源处置有限公司', '卸料大厅', '', true, null],
];

function warehouses(r: Random, companies: Map<string, Company>): Warehouse[] {
  return WAREHOUSES.map(([companyName, name, place, unloading, person], i) => {
    const company = companies.get(companyName) as Company;
    const linkman = company.linkmen.find((l) => l.name === (person ?? company.contact)) ?? company.linkmen[0];
    const address = `${company.address}${place}`;
    // Most stores are old; every other one was registered within the list's default 90 days.
    const at = workingMoment(r, i % 2 === 0 ? 420 - i * 3 : 80 - i * 5);
    const p = company.profile;
    return {
      company,
      name,
      address,
      unloading,
      at,
      owner: company.owner,
      fields: () => ({
        name,
        deptId: company.deptId,
        region: company.region,
        regionFmt: company.regionFmt,
        address,
        capacity: unloading ? r.decimal(200, 800, 2) : r.decimal(20, 300, 2),
        area: r.decimal(60, 1200, 1),
        linkman: linkman?.name ?? company.contact,
        phone: linkman?.phone ?? company.phone,
        dutyTel: `${p.area}-6${r.digits(7)}`,
        email: `wh${pad(i + 1)}@${p.domain}`,
        unloadingPoint: unloading ? '1' : '2',
        lastCheckTime: dateText(daysFromNow(-r.int(3, 90))),
        status: '1',
      }),
    };
  });
}

interface Contract extends Planned {
  no: string;
  a: Company;
  b: Company;
  begin: Date;
  end: Date;
  status: string;
}

/**
 * Contracts, party A the producer (or a collector, or a disposer handing on its residues), party B the
 * disposer. The seeded producer has two ending within 30 days (the seeded notice 您的合同即将到期), one
 * expired and one in force beyond the window; the seeded disposer is party to three ending within 30 days.
 * `days`: until the contract ends, or for an expired one (3 已到期) since it ended.
 */
const CONTRACTS: [no: string, a: string, b: string, days: number, amount: number, status: string][] = [
  ['HT2026-0012', '苏州华瑞精细化工有限公司', '江苏绿源环保科技有限公司', 12, 186000, '2'],
  ['HT2026-0025', '苏州华瑞精细化工有限公司', '江苏绿源环保科技有限公司', 25, 94500, '2'],
  ['HT2025-0173', '苏州华瑞精细化工有限公司', '江苏绿源环保科技有限公司', 40, 152800, '3'],
  ['HT2026-0106', '苏州华瑞精细化工有限公司', '南通清源固废处置有限公司', 200, 238000, '2'],
  ['HT2026-0094', '苏州华瑞精细化工有限公司', '上海金山环境资源处置有限公司', 330, 128000, '0'],
  ['HT2026-0088', '常州东方电镀有限公司', '江苏绿源环保科技有限公司', 180, 326400, '2'],
  ['HT2025-0188', '常州东方电镀有限公司', '江苏绿源环保科技有限公司', 60, 298000, '3'],
  ['HT2026-0031', '常州东方电镀有限公司', '南通清源固废处置有限公司', 8, 78200, '2'],
  ['HT2026-0042', '无锡新吴微电子材料有限公司', '江苏绿源环保科技有限公司', 20, 64800, '2'],
  ['HT2026-0115', '无锡新吴微电子材料有限公司', '南通清源固废处置有限公司', 120, 52600, '2'],
  ['HT2025-0219', '常州武进恒达表面处理有限公司', '江苏绿源环保科技有限公司', 5, 118600, '3'],
  ['HT2026-0063', '常州武进恒达表面处理有限公司', '上海金山环境资源处置有限公司', 150, 205000, '2'],
  ['HT2026-0133', '常州武进恒达表面处理有限公司', '南通清源固废处置有限公司', 45, 96000, '1'],
  ['HT2026-0057', '宁波北仑顺达汽车维修有限公司', '南通清源固废处置有限公司', 90, 36500, '2'],
  ['HT2026-0121', '宁波北仑顺达汽车维修有限公司', '上海金山环境资源处置有限公司', 210, 41200, '2'],
  ['HT2026-0071', '无锡新吴区危废集中收集点', '江苏绿源环保科技有限公司', 150, 142000, '2'],
  ['HT2026-0079', '无锡新吴区危废集中收集点', '南通清源固废处置有限公司', 240, 88000, '1'],
  ['HT2025-0204', '无锡新吴区危废集中收集点', '上海金山环境资源处置有限公司', 60, 56000, '4'],
  ['HT2026-0158', '江苏绿源环保科技有限公司', '南通清源固废处置有限公司', 260, 312000, '2'],
  ['HT2026-0142', '常州东方电镀有限公司', '上海金山环境资源处置有限公司', 300, 175000, '0'],
];

const CLAUSES =
  '<p>一、乙方按照《危险废物贮存污染控制标准》接收、运输并处置甲方产生的危险废物。</p><p>二、结算以实际过磅重量为准，每月结算一次。</p>';

function contracts(r: Random, refs: Refs, companies: Map<string, Company>, stores: Warehouse[]): Contract[] {
  return CONTRACTS.map(([no, aName, bName, days, amount, status]) => {
    const a = companies.get(aName) as Company;
    const b = companies.get(bName) as Company;
    // Party A's store of the waste: its first warehouse that is not an unloading point.
    const store = stores.find((w) => w.company === a && !w.unloading) ?? stores.find((w) => w.company === a);
    const end = daysFromNow(status === '3' ? -days : days);
    const begin = new Date(end.getTime() - 365 * DAY);
    const signed = new Date(begin.getTime() - r.int(3, 20) * DAY);
    // Drafted by party A where it has an account, else by the disposer that offers it.
    const owner = a.owner.username ? a.owner : b.owner.username ? b.owner : a.owner;
    const at = new Date(Math.min(Date.now() - HOUR, signed.getTime()));
    at.setHours(r.int(8, 17), r.int(0, 59), r.int(0, 59), 0);
    return {
      no,
      a,
      b,
      begin,
      end,
      status,
      at,
      owner,
      fields: () => ({
        contractNo: no,
        contractName: `${a.name}危险废物委托处置合同`,
        partyAId: a.id,
        partyBId: b.id,
        warehouseId: store ? (refs.ids.get(store) ?? null) : null,
        amount,
        signDate: dateText(signed),
        beginDate: dateText(begin),
        endDate: dateText(end),
        contractStatus: status,
        signer: a.contact,
        signerIdCard: idCard(r, a.district),
        attachments: JSON.stringify([
          { fileName: `危险废物委托处置合同-${no}.pdf`, filePath: `2026/01/${no.replace(/\D/g, '').padEnd(24, '0')}.pdf` },
        ]),
        content: CLAUSES,
      }),
    };
  });
}

interface StockIn extends Planned {
  company: Company;
  warehouse: Warehouse;
  code: string;
  quantity: number;
  status: string;
}

function stockIns(r: Random, refs: Refs, companies: Company[], stores: Warehouse[]): StockIn[] {
  const out: StockIn[] = [];
  for (const company of companies) {
    // A disposer stores its own waste apart from where deliveries are unloaded.
    const own = stores.filter((w) => w.company === company && !(company.type === '2' && w.unloading));
    for (let n = 0; n < company.profile.stockIns; n++) {
      // Each of its wastes first, then any.
      const wastes = company.profile.wastes;
      const code = n < wastes.length ? (wastes[n] as string) : r.pick(wastes);
      const waste = WASTES[code] as (typeof WASTES)[string];
      // The larger companies' newest stock-ins still await stock-in (待入库).
      const recent = n < (company.profile.stockIns >= 10 ? 3 : company.profile.stockIns >= 5 ? 1 : 0);
      const at = workingMoment(r, recent ? r.int(0, 8) : r.int(10, 119));
      const liquid = /液|油|溶剂|酸|碱/.test(waste.name);
      const fitting = own.filter((w) => (liquid && /液|酸/.test(w.name)) || (code === '900-052-31' && w.name.includes('蓄电池')));
      const warehouse = r.pick(fitting.length ? fitting : own);
      const ageDays = (Date.now() - at.getTime()) / DAY;
      const status = ageDays < 10 ? '0' : r.chance(0.6) ? '2' : '1';
      const quantity = r.decimal(company.profile.tons[0], company.profile.tons[1], 3);
      const handler = company.linkmen.find((l) => l.position?.includes('仓库')) ?? company.linkmen[0];
      const remark = r.pick(['桶身完好，标签齐全', '已称重复核', '液态废物，单独存放于防渗托盘', '包装轻微破损，已套袋', null, null, null]);
      const packageType = liquid ? r.pick(['2', '6']) : r.pick(['1', '4', '5']);
      const s: StockIn = {
        company,
        warehouse,
        code,
        quantity,
        status,
        at,
        owner: company.owner,
        fields: () => ({
          stockNo: '',
          wasteCategory: waste.category,
          wasteCode: code,
          wasteName: waste.name,
          quantity,
          packageType,
          warehouseId: refs.ids.get(warehouse),
          inTime: timeText(at),
          status: s.status,
          handler: handler?.name ?? company.contact,
          handlerPhone: handler?.phone ?? company.phone,
          remark,
        }),
      };
      out.push(s);
    }
  }
  return out;
}

interface Order extends Planned {
  contract: Contract;
  stockIn: StockIn;
  quantity: number;
  status: string;
  shippedAt: Date | null;
  /** The logistics company that carries it (运输单位); none while unbooked or in the disposer's own vehicles. */
  carrier?: Company;
}

/** A contract between the stock-in's company and a disposer, binding on `day`. */
function contractFor(r: Random, all: Contract[], company: Company, day: Date): Contract | undefined {
  const binding = all.filter(
    (c) => c.a === company && ['2', '3'].includes(c.status) && c.begin.getTime() <= day.getTime() && c.end.getTime() >= day.getTime(),
  );
  return binding.length ? r.pick(binding) : undefined;
}

/**
 * What happened to each stock-in: a shipped one (status 2) went to a disposer under a contract, with a
 * stock-out and a disposal order that names it; some in stock are ordered already and wait for pickup.
 * A company without a binding contract ships nothing: its stock-ins stay in stock.
 */
function shipments(r: Random, refs: Refs, ins: StockIn[], all: Contract[]): { orders: Order[]; outs: Planned[] } {
  const orders: Order[] = [];
  const outs: Planned[] = [];
  const outOf = new Map<Order, Planned>();
  const sorted = [...ins].sort((x, y) => x.at.getTime() - y.at.getTime());
  for (const s of sorted) {
    if (s.status === '0') continue;
    const shipped = s.status === '2';
    const orderAt = later(s.at, r.int(1, 4) * DAY + r.int(0, 6) * HOUR);
    const contract = contractFor(r, all, s.company, orderAt);
    if (!contract) {
      s.status = '1';
      continue;
    }
    if (!shipped && !r.chance(0.35)) continue;
    const waste = WASTES[s.code] as (typeof WASTES)[string];
    const price = r.decimal(waste.price[0], waste.price[1], 3);
    const shippedAt = shipped ? later(orderAt, r.int(1, 5) * DAY + r.int(0, 5) * HOUR) : null;
    // Disposal takes weeks after delivery: an order shipped within the last month is still under way.
    const done = shippedAt !== null && Date.now() - shippedAt.getTime() > 30 * DAY;
    const status = shippedAt ? (done ? '2' : '1') : r.chance(0.2) ? '3' : '0';
    const quantity = s.quantity;
    const prepay = r.pick(['1', '2', '2']);
    const amount = Number((quantity * price).toFixed(2));
    const processes = PROCESS_OF[waste.category] ?? ['D10'];
    const order: Order = {
      contract,
      stockIn: s,
      quantity,
      status,
      shippedAt,
      at: orderAt,
      owner: contract.b.owner,
      fields: () => ({
        orderNo: '',
        stockId: refs.ids.get(s),
        contractNo: contract.no,
        contractId: refs.ids.get(contract),
        producerId: s.company.id,
        producerRegion: s.company.region,
        producerRegionFmt: s.company.regionFmt,
        disposerId: contract.b.id,
        carrierId: order.carrier?.id ?? null,
        wasteCategory: waste.category,
        quantity,
        price,
        amount,
        processMethods: processes.map((code) => refs.processIds.get(code)).join(','),
        estDisposalTime: dateText(new Date(orderAt.getTime() + r.int(5, 20) * DAY)),
        orderStatus: status,
        needPrepay: prepay,
        prepayPrice: prepay === '1' ? Number((amount * 0.3).toFixed(2)) : null,
        remark: r.chance(0.25) ? '请提前一天预约卸货时间' : null,
      }),
    };
    orders.push(order);
    if (shippedAt) {
      const out: Planned = {
        at: shippedAt,
        owner: s.company.owner,
        fields: () => ({
          outNo: '',
          stockInId: refs.ids.get(s),
          wasteCategory: waste.category,
          quantity,
          outTime: timeText(order.shippedAt ?? shippedAt),
          receiver: contract.b.name,
          transportMode: r.pick(['1', '3', '3']),
          plateNo: refs.transport.get(order)?.plate ?? null,
          driverPhone: refs.transport.get(order)?.driverPhone ?? null,
          manifestNo: `${s.company.district.slice(0, 4)}${compact(order.shippedAt ?? shippedAt)}${r.digits(4)}`,
          status: done ? '2' : '1',
          remark: r.chance(0.3) ? '随车携带转移联单及应急处置卡' : null,
        }),
      };
      outs.push(out);
      outOf.set(order, out);
    }
  }
  // The two latest shipments left this last hour or so and are on the road now.
  const latest = orders.filter((o) => o.shippedAt).sort((x, y) => (y.shippedAt as Date).getTime() - (x.shippedAt as Date).getTime());
  for (const o of latest.slice(0, 2)) {
    o.shippedAt = new Date(Date.now() - r.int(30, 90) * 60_000);
    (outOf.get(o) as Planned).at = o.shippedAt;
  }
  return { orders, outs };
}

interface Vehicle extends Planned {
  company: Company;
  plate: string;
  driverPhone: string;
  capacity: number;
  status: string;
}

/** The vehicles of a carrier or a disposer's own fleet. */
function vehicles(r: Random, company: Company, count: number, types: string[]): Vehicle[] {
  const plates = new Set<string>();
  return Array.from({ length: count }, (_, i) => {
    let p = plateOf(r, company.profile.plate);
    while (plates.has(p)) p = plateOf(r, company.profile.plate);
    plates.add(p);
    const type = r.pick(types);
    const capacity = type === '4' ? r.decimal(25, 31, 2) : type === '2' ? r.decimal(10, 20, 2) : r.decimal(1.5, 12, 2);
    const driverPhone = mobile(r);
    const at = workingMoment(r, r.int(120, 400));
    const v: Vehicle = {
      company,
      plate: p,
      driverPhone,
      capacity,
      // A large fleet has one vehicle in the workshop and one laid up; the rest are free until a waybill takes them.
      status: count > 6 && i === count - 1 ? '3' : i % 7 === 6 ? '2' : '0',
      at,
      owner: company.owner,
      fields: () => ({
        plateNo: p,
        vehicleType: type,
        loadCapacity: capacity,
        axleCount: type === '4' ? r.int(5, 6) : r.int(2, 4),
        driverName: r.pick(NAMES),
        driverPhone,
        driverIdCard: idCard(r, company.district),
        licenseNo: `${company.district.slice(0, 3)}${r.digits(9)}`,
        escortName: r.pick(NAMES),
        escortPhone: mobile(r),
        vehicleStatus: v.status,
        annualDate: dateText(daysFromNow(r.int(10, 330))),
        internalCode: `CL-${String(i + 1).padStart(4, '0')}`,
      }),
    };
    return v;
  });
}

/**
 * The carriers move most shipped orders, and the order names the carrier whose vehicle moves it; the rest
 * go in the disposer's own vehicles.
 */
function logisticsOrders(r: Random, refs: Refs, orders: Order[], carrier: Vehicle[], fleets: Vehicle[], stores: Warehouse[]): Planned[] {
  const out: Planned[] = [];
  for (const o of orders) {
    const idle = carrier.filter((v) => v.status === '0');
    if (o.status === '0' && idle.length && r.chance(0.6)) {
      const vehicle = r.pick(idle);
      o.carrier = vehicle.company;
      out.push(pickup(r, refs, o, vehicle, stores));
      continue;
    }
    if (!o.shippedAt) continue;
    // A vehicle under repair (2) or out of service (3) moves nothing.
    const usable = (v: Vehicle) => v.capacity >= o.quantity && v.status !== '2' && v.status !== '3';
    const own = fleets.filter((v) => v.company === o.contract.b && usable(v));
    if (own.length && r.chance(0.15)) {
      refs.transport.set(o, r.pick(own));
      continue;
    }
    const fit = carrier.filter(usable);
    const vehicle = r.pick(fit.length ? fit : carrier);
    refs.transport.set(o, vehicle);
    o.carrier = vehicle.company;
    const loadAt = o.shippedAt;
    const hours = o.stockIn.company.regionFmt.split('/')[1] === o.contract.b.regionFmt.split('/')[1] ? r.int(2, 3) : r.int(3, 9);
    const arrive = new Date(loadAt.getTime() + hours * HOUR);
    const arrived = arrive.getTime() < Date.now();
    if (!arrived) vehicle.status = '1';
    out.push(move(r, refs, o, vehicle, loadAt, arrived ? arrive : null, hours, stores));
  }
  return out;
}

/** The carrier's waybill of an order: loaded at the producer's warehouse, unloaded at the disposer's unloading point. */
function move(
  r: Random,
  refs: Refs,
  o: Order,
  vehicle: Vehicle,
  loadAt: Date,
  arrived: Date | null,
  hours: number,
  stores: Warehouse[],
  status = arrived ? '2' : '1',
  at = loadAt,
): Planned {
  const unloading = stores.find((w) => w.company === o.contract.b && w.unloading);
  const freight = r.decimal(hours <= 3 ? 800 : 1500, hours <= 3 ? 1800 : 6800, 2);
  return {
    at,
    owner: vehicle.company.owner,
    fields: () => ({
      waybillNo: '',
      disposalOrderId: refs.ids.get(o),
      vehicleId: refs.ids.get(vehicle),
      fromRegion: o.stockIn.company.region,
      fromRegionFmt: o.stockIn.company.regionFmt,
      fromAddress: o.stockIn.warehouse.address,
      toAddress: unloading?.address ?? o.contract.b.address,
      weight: Math.min(49, o.quantity),
      freight,
      loadTime: timeText(loadAt),
      arriveTime: arrived ? timeText(arrived) : null,
      orderStatus: status,
    }),
  };
}

/** A pickup the carrier has booked for an order still waiting (待确认): loading in the coming days. */
function pickup(r: Random, refs: Refs, o: Order, vehicle: Vehicle, stores: Warehouse[]): Planned {
  const loadAt = new Date(Math.max(Date.now(), o.at.getTime()) + r.int(1, 4) * DAY);
  loadAt.setHours(r.int(8, 11), 0, 0, 0);
  return move(r, refs, o, vehicle, loadAt, null, r.int(2, 6), stores, '0', later(o.at, r.int(2, 20) * HOUR));
}

/**
 * Inquiries: producers and the collector ask disposers for quotes on the wastes they hold, each raised
 * from the asker's latest stock-in of that waste before it (none when there is no such stock-in).
 */
function inquiries(r: Random, refs: Refs, askers: Company[], disposers: Company[], ins: StockIn[]): Planned[] {
  const weights = askers.flatMap((c) => Array.from({ length: Math.max(1, Math.round(c.profile.stockIns / 3)) }, () => c));
  return Array.from({ length: 30 }, () => {
    const asker = r.pick(weights);
    const asked = r.pick(disposers);
    const code = r.pick(asker.profile.wastes);
    const waste = WASTES[code] as (typeof WASTES)[string];
    const at = workingMoment(r, r.int(0, 89));
    const status = r.pick(['0', '0', '1', '1', '1', '2', '3']);
    const transportNeeded = r.pick(['1', '2']);
    const expect = r.decimal(waste.price[0], waste.price[1], 2);
    const linkman = asked.linkmen.find((l) => /商务|调度/.test(l.position ?? '')) ?? asked.linkmen[0];
    const stock = ins
      .filter((s) => s.company === asker && s.code === code && s.at.getTime() <= at.getTime())
      .reduce<StockIn | undefined>((latest, s) => (latest && latest.at.getTime() >= s.at.getTime() ? latest : s), undefined);
    return {
      at,
      owner: asker.owner,
      fields: () => ({
        inquiryNo: '',
        companyId: asked.id,
        linkmanId: linkman?.id ?? null,
        stockId: stock ? (refs.ids.get(stock) ?? null) : null,
        wasteCategory: waste.category,
        quantity: r.decimal(asker.profile.tons[0], asker.profile.tons[1] * 2, 3),
        expectPrice: expect,
        inquiryStatus: status,
        quotedPrice: status === '1' ? Number((expect * r.decimal(0.95, 1.2, 2)).toFixed(2)) : null,
        quoteTime: status === '1' ? timeText(later(at, r.int(1, 5) * DAY)) : null,
        needTransport: transportNeeded,
        transportRegion: transportNeeded === '1' ? asker.district : null,
        deadline: dateText(new Date(at.getTime() + r.int(7, 30) * DAY)),
        remark: r.pick(['请报含税价，含运输', '需提供危险废物经营许可证复印件', '月度长期合作，量大从优', null]),
      }),
    };
  });
}

/**
 * Leave messages, each to the department that handles it (接收部门): the supervisory department and its
 * city offices, the company departments, the system administrators. Every demo account's department
 * receives some.
 */
const MESSAGES: [from: string, to: number, title: string, content: string, daysAgo: number][] = [
  ['producer', DEPT.supervision, '转移联单无法提交', '在全国固废系统提交转移联单时提示“接收单位资质过期”，请协助核实。', 3],
  ['producer', DEPT.suzhou, '危废贮存期限咨询', '我司废矿物油已贮存 10 个月，是否需要申请延期？', 16],
  ['producer', DEPT.disposers, '处置价格异议', '本月处置单价较上月上涨 15%，请说明调价依据。', 9],
  ['producer', DEPT.logistics, '运输车辆预约', '下周三需要一辆罐式货车转运废有机溶剂约 8 吨。', 2],
  ['producer', DEPT.sysadmin, '平台账号权限', '新入职环保专员需要开通危废入库权限。', 40],
  ['disposer', DEPT.producers, '收运计划通知', '贵司下周一的收运计划已排定，请提前将废矿物油桶装密封并张贴危废标签。', 1],
  ['disposer', DEPT.producers, '合同续签提醒', '合同HT2026-0012即将到期，我司希望续签一年，请安排商务对接。', 5],
  ['disposer', DEPT.supervision, '新增危废类别备案', '我司新增 HW17 表面处理废物处置能力，如何在平台备案？', 25],
  ['disposer', DEPT.logistics, '卸货时间调整', '焚烧车间卸料区本周四检修，当天请勿安排车辆进场。', 4],
  ['disposer', DEPT.collectors, '废铅蓄电池接收安排', '收集点的废铅蓄电池可于下周二起送至我司物化车间卸料区。', 7],
  ['logistics', DEPT.disposers, '到厂过磅排队', '昨日车辆在焚烧车间卸料区排队超过 3 小时，请协调过磅时段。', 6],
  ['logistics', DEPT.producers, '装车时间确认', '明早 8:30 到厂装车，请提前准备转移联单和包装桶。', 0],
  ['logistics', DEPT.sysadmin, '车辆登记备案', '本周新增两辆危化品运输车，请帮忙在平台登记备案。', 12],
  ['collector', DEPT.disposers, '申请安排转运', '收集点本月累计收集废铅蓄电池3.2吨，申请安排转运。', 2],
  ['collector', DEPT.supervision, '小微企业收集试点', '试点扩围后新增 12 家委托企业，收集台账如何报送？', 19],
  ['collector', DEPT.logistics, '零担运输询价', '每周一次零担运输废包装桶约 2 吨，请报价。', 11],
  ['expired', DEPT.nanjing, '跨市转移审批', '电镀污泥转移至南京江宁处置，跨市转移审批需要多久？', 33],
  ['expired', DEPT.disposers, '发票开具问题', '上月处置费发票抬头有误，申请作废重开。', 21],
  ['newcomer', DEPT.producers, '废酸接收能力说明', '我司废酸贮罐区扩容完成，欢迎各产废单位询价。', 8],
  ['newcomer', DEPT.sysadmin, '入驻资料更新', '危险废物经营许可证已换证，请协助更新企业资质。', 14],
  ['supervisor', DEPT.producers, '规范化评估自查', '请于本月底前完成危险废物规范化环境管理自查并上传报告。', 10],
  ['supervisor', DEPT.collectors, '收集点台账抽查', '下周将抽查收集点出入库台账，请提前整理近三个月记录。', 15],
  ['无锡新吴微电子材料有限公司', DEPT.collectors, '委托收集咨询', '我司年产废量约 6 吨，能否委托收集点收集含铜蚀刻废液？', 27],
  ['宁波北仑顺达汽车维修有限公司', DEPT.supervision, '跨省转移咨询', '废机油拟转移至上海金山处置，跨省转移需办理哪些手续？', 45],
  ['admin', DEPT.supervision, '平台升级说明', '转移联单电子化模块已上线，请各监管科通知辖区企业使用。', 30],
];

function leaveMessages(r: Random, companies: Map<string, Company>, users: Users): Planned[] {
  return MESSAGES.map(([from, to, title, content, daysAgo]) => {
    const user = users.byName.get(from);
    const company = companies.get(from) ?? [...companies.values()].find((c) => c.id === user?.companyId);
    const owner: RecordOwner = user
      ? { id: user.id, username: user.username, companyId: user.companyId, deptId: user.deptId }
      : (company?.owner as RecordOwner);
    const at = workingMoment(r, daysAgo);
    const read = daysAgo > 3 ? r.pick(['1', '1', '2']) : '2';
    return {
      at,
      owner,
      fields: () => ({
        title,
        content,
        contactName: user?.nick ?? company?.contact ?? '',
        contactPhone: user?.phone || company?.phone || null,
        email: user?.email || (company ? `hse@${company.profile.domain}` : null),
        deptId: to,
        haveRead: read,
        replyContent: read === '1' ? '您好，已收到您的留言，相关人员将在一个工作日内与您联系。' : null,
        replyTime: read === '1' ? timeText(later(at, r.int(1, 48) * HOUR)) : null,
      }),
    };
  });
}

const byTime = <T extends Planned>(list: T[]) => [...list].sort((x, y) => x.at.getTime() - y.at.getTime());

/** Numbers of a view's records in time order: prefix + date + sequence. */
function number<T extends Planned>(list: T[], prefix: string, set: (p: T, no: string) => void): T[] {
  const sorted = byTime(list);
  for (const [i, p] of sorted.entries()) set(p, `${prefix}${compact(p.at)}${String(i + 1).padStart(4, '0')}`);
  return sorted;
}

/** Plans every business record; insert them in `order`, resolving the fields of each after the ones before. */
export async function planRecords(trx: Transaction<DB>): Promise<Plan> {
  const r = random(20261121);
  const { companies: list, users } = await loadCompanies(trx);
  const companies = new Map(list.map((c) => [c.name, c]));
  const processes = await trx.selectFrom('disposal_process').select(['id', 'code']).where('pid', 'is', null).execute();
  const refs: Refs = { ids: new Map(), processIds: new Map(processes.map((p) => [p.code, p.id])), transport: new Map() };
  const plan: Plan = { order: [], records: new Map(), ids: refs.ids };

  const stores = warehouses(r, companies);
  const deals = contracts(r, refs, companies, stores);
  const ins = stockIns(r, refs, list, stores);
  const { orders, outs } = shipments(r, refs, ins, deals);
  const carrier = list.filter((c) => c.type === '3');
  // The seeded carrier's fleet first; the other carriers' fleets draw from generators of their own, so
  // that the records planned after them stay as they were before those carriers were seeded.
  const carrierVehicles = carrier.flatMap((c, i) =>
    i === 0 ? vehicles(r, c, 12, ['1', '1', '2', '4']) : vehicles(random(20261121 + c.id), c, 6, ['1', '2', '4']),
  );
  const fleets = list.filter((c) => c.type === '2' && c.owner.username).flatMap((c) => vehicles(r, c, 3, ['1', '2']));
  const moves = logisticsOrders(r, refs, byTime(orders), carrierVehicles, fleets, stores);
  const askers = list.filter((c) => (c.type === '1' || c.type === '4') && c.profile.wastes.length);
  const asked = list.filter((c) => c.type === '2');
  const asks = inquiries(r, refs, askers, asked, ins);
  const notes = leaveMessages(r, companies, users);

  const numbered = <T extends Planned>(items: T[], prefix: string, key: string) =>
    number(items, prefix, (p, no) => {
      const fields = p.fields;
      p.fields = () => ({ ...fields(), [key]: no });
    });
  plan.records.set('warehouse', byTime(stores));
  plan.records.set('contract', byTime(deals));
  plan.records.set('stockIn', numbered(ins, 'RK', 'stockNo'));
  plan.records.set('disposalOrder', numbered(orders, 'CZ', 'orderNo'));
  plan.records.set('stockOut', numbered(outs, 'CK', 'outNo'));
  plan.records.set('disposalInquiry', numbered(asks, 'XJ', 'inquiryNo'));
  plan.records.set('vehicle', byTime([...carrierVehicles, ...fleets]));
  plan.records.set('logisticsOrder', numbered(moves, 'WL', 'waybillNo'));
  plan.records.set('leaveMessage', byTime(notes));
  plan.order = [
    'warehouse',
    'contract',
    'stockIn',
    'disposalOrder',
    'stockOut',
    'disposalInquiry',
    'vehicle',
    'logisticsOrder',
    'leaveMessage',
  ];
  return plan;
}
