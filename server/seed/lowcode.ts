import { sql, type Transaction } from 'kysely';
import { buildSchema } from '../../src/model/index.js';
import type { DB } from '../db/schema.js';
import { syncViewTable } from '../lowcode/ddl.js';
import { recordValues } from '../lowcode/record-input.js';
import { insertRows, type Row } from '../lowcode/rows.js';
import { readView, type ViewModel } from '../lowcode/view-model.js';
import { screenMenuId, viewMenuId } from './ids.js';
import { DATA_VIEWS, SCREEN_SEEDS, UNDESIGNED_VIEW, VIEW_SEEDS } from './lowcode-definitions.js';

/**
 * Low-code seed: view definitions with their tables and rows, data views and screens. Definitions are
 * read by the page model and rows go through the same validation as /api/general/add, so the seed
 * cannot drift from its own definitions. The seed also fills the read-only (show 3) fields, which the
 * back end sets, by the same rules as the editable ones. Dates
 * are relative to the day of seeding (the last 120 days); the generator is seeded, so every fresh
 * database gets the same records.
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
const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const timeText = (d: Date) => `${dateText(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
const compact = (d: Date) => dateText(d).replace(/-/g, '');

/** `count` moments within the last `days` days, oldest first, during working hours. */
function moments(r: Random, count: number, days = 120): Date[] {
  const now = Date.now();
  return Array.from({ length: count }, () => {
    const d = new Date(now - r.int(0, days - 1) * DAY);
    d.setHours(r.int(8, 17), r.int(0, 59), r.int(0, 59), 0);
    return d.getTime() > now ? new Date(now - r.int(1, 3600) * 1000) : d;
  }).sort((a, b) => a.getTime() - b.getTime());
}

const NAMES = [
  '张伟',
  '王芳',
  '李强',
  '刘洋',
  '陈静',
  '杨帆',
  '赵磊',
  '黄丽',
  '周杰',
  '吴敏',
  '徐涛',
  '孙燕',
  '马超',
  '朱琳',
  '胡斌',
  '郭亮',
  '何萍',
  '高翔',
];
const PRODUCERS = [
  '苏州华瑞精细化工有限公司',
  '常州东方电镀有限公司',
  '无锡晶源电子材料有限公司',
  '南通海润船舶涂装有限公司',
  '昆山精工表面处理有限公司',
  '张家港扬子江石化配套有限公司',
  '南京栖霞汽车零部件有限公司',
  '江阴澄星印染有限公司',
];
const DISPOSERS = ['江苏绿源环保科技有限公司', '南通清源固废处置有限公司', '苏州市东吴危废焚烧处置中心', '常州市环境科技发展有限公司'];
const WASTES = [
  { category: 'HW08', code: '900-249-08', name: '废矿物油' },
  { category: 'HW08', code: '900-214-08', name: '废润滑油' },
  { category: 'HW06', code: '900-404-06', name: '废有机溶剂' },
  { category: 'HW12', code: '900-252-12', name: '废油漆渣' },
  { category: 'HW17', code: '336-064-17', name: '电镀污泥' },
  { category: 'HW49', code: '900-041-49', name: '废包装桶' },
  { category: 'HW34', code: '900-300-34', name: '废酸液' },
  { category: 'HW35', code: '900-399-35', name: '废碱液' },
  { category: 'HW09', code: '900-007-09', name: '废乳化液' },
  { category: 'HW13', code: '900-014-13', name: '废离子交换树脂' },
  { category: 'HW50', code: '261-151-50', name: '废催化剂' },
  { category: 'HW22', code: '397-005-22', name: '含铜蚀刻废液' },
  { category: 'HW18', code: '772-003-18', name: '焚烧飞灰' },
] as const;
const REGIONS = [
  { code: '320000,320500,320505', fmt: '江苏省/苏州市/虎丘区', address: '苏州高新区浒墅关经济开发区青花路128号' },
  { code: '320000,320500,320583', fmt: '江苏省/苏州市/昆山市', address: '昆山开发区前进东路579号' },
  { code: '320000,320100,320115', fmt: '江苏省/南京市/江宁区', address: '江宁区滨江经济开发区丽水大街1186号' },
  { code: '320000,320200,320214', fmt: '江苏省/无锡市/新吴区', address: '新吴区硕放街道振发路235号' },
  { code: '320000,320400,320411', fmt: '江苏省/常州市/新北区', address: '新北区春江镇圩塘工业集中区江达路18号' },
  { code: '320000,320600,320685', fmt: '江苏省/南通市/海安市', address: '海安市城东镇开发大道中36号' },
  { code: '310000,310100,310116', fmt: '上海市/市辖区/金山区', address: '金山区漕泾镇目华路1288号' },
] as const;
const PLATE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

const mobile = (r: Random) => `1${r.pick(['3', '5', '7', '8', '9'])}${r.digits(9)}`;
const plate = (r: Random) =>
  `苏${r.pick([...'ABCDEFGHJKLMN'])}${Array.from({ length: 5 }, () => r.pick([...`${PLATE_LETTERS}0123456789`])).join('')}`;

/** A valid 18-digit resident identity number (GB 11643 checksum). */
function idCard(r: Random): string {
  const birth = new Date(Date.UTC(r.int(1965, 1998), r.int(0, 11), r.int(1, 28)));
  const base = `320505${birth.getUTCFullYear()}${pad(birth.getUTCMonth() + 1)}${pad(birth.getUTCDate())}${r.digits(3)}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(base[i]), 0);
  return base + '10X98765432'[sum % 11];
}

interface Lookups {
  warehouseIds: number[];
  deptIds: number[];
  disposerCompanies: { id: number; linkmanIds: number[] }[];
  processIds: number[];
}

async function lookups(trx: Transaction<DB>): Promise<Lookups> {
  const warehouses = await trx.selectFrom('company_warehouse').select('id').orderBy('id').execute();
  const depts = await trx.selectFrom('sys_dept').select('id').orderBy('id').execute();
  const disposers = await trx.selectFrom('company').select('id').where('type', '=', '2').orderBy('id').execute();
  const linkmen = await trx.selectFrom('company_linkman').select(['id', 'company_id']).execute();
  const processes = await trx.selectFrom('disposal_process').select('id').where('pid', 'is', null).orderBy('id').execute();
  return {
    warehouseIds: warehouses.map((w) => w.id),
    deptIds: depts.map((d) => d.id),
    disposerCompanies: disposers.map((c) => ({ id: c.id, linkmanIds: linkmen.filter((l) => l.company_id === c.id).map((l) => l.id) })),
    processIds: processes.map((p) => p.id),
  };
}

type Generated = { record: Row; at: Date }[];
const orNull = <T>(list: readonly T[], r: Random): T | null => (list.length ? r.pick(list) : null);

function stockInRows(r: Random, l: Lookups): Generated {
  const remarks = ['桶身完好，标签齐全', '已称重复核', '液态废物，单独存放于防渗托盘', '包装轻微破损，已套袋', null, null, null];
  return moments(r, 60).map((at, i) => {
    const w = r.pick(WASTES);
    const ageDays = (Date.now() - at.getTime()) / DAY;
    return {
      at,
      record: {
        stockNo: `RK${compact(at)}${String(i + 1).padStart(4, '0')}`,
        wasteCategory: w.category,
        wasteCode: w.code,
        wasteName: w.name,
        quantity: r.decimal(0.2, 28, 3),
        packageType: r.pick(['1', '2', '2', '3', '4', '5', '6']),
        warehouseId: orNull(l.warehouseIds, r),
        inTime: timeText(at),
        status: ageDays < 10 ? '0' : r.pick(['1', '1', '2']),
        handler: r.pick(NAMES),
        handlerPhone: mobile(r),
        remark: r.pick(remarks),
      },
    };
  });
}

function stockOutRows(r: Random, stockIn: { id: number; record: Row; at: Date }[]): Generated {
  const done = stockIn.filter((s) => s.record.status !== '0');
  return moments(r, 40, 110).map((at, i) => {
    const source = r.pick(done);
    const out = new Date(Math.min(Date.now(), Math.max(at.getTime(), source.at.getTime() + r.int(1, 10) * DAY)));
    return {
      at: out,
      record: {
        outNo: `CK${compact(out)}${String(i + 1).padStart(4, '0')}`,
        stockInId: source.id,
        wasteCategory: source.record.wasteCategory,
        quantity: Math.max(0.001, Number((Number(source.record.quantity) * r.decimal(0.5, 1, 3)).toFixed(3))),
        outTime: timeText(out),
        receiver: r.pick(DISPOSERS),
        transportMode: r.pick(['1', '2', '3']),
        plateNo: plate(r),
        driverPhone: mobile(r),
        manifestNo: `3205${compact(out)}${r.digits(4)}`,
        status: r.pick(['0', '1', '2', '2', '2']),
        remark: r.chance(0.3) ? '随车携带转移联单及应急处置卡' : null,
      },
    };
  });
}

function warehouseRows(r: Random, l: Lookups): Generated {
  const names = [
    '一号危废暂存库',
    '二号危废暂存库（液态）',
    '甲类危废贮存库',
    '电镀污泥仓库',
    '废槽液贮存区',
    '焚烧车间卸料区',
    '物化车间卸料区',
  ];
  return moments(r, 15).map((at, i) => {
    const region = r.pick(REGIONS);
    const areaCode = region.fmt.includes('苏州')
      ? '0512'
      : region.fmt.includes('南京')
        ? '025'
        : region.fmt.includes('上海')
          ? '021'
          : '0510';
    return {
      at,
      record: {
        name: `${r.pick(PRODUCERS).slice(0, 4)}${names[i % names.length]}`,
        deptId: orNull(l.deptIds, r),
        region: region.code,
        regionFmt: region.fmt,
        address: `${region.address}${r.pick(['东侧', '北门', '3号库', '二期厂区'])}`,
        capacity: r.decimal(20, 800, 2),
        area: r.decimal(50, 1200, 1),
        linkman: r.pick(NAMES),
        phone: r.chance(0.7) ? mobile(r) : `${areaCode}-${r.int(5, 8)}${r.digits(7)}`,
        dutyTel: `${areaCode}-6${r.digits(7)}`,
        email: `wh${String(i + 1).padStart(2, '0')}@${r.pick(['huarui-chem.cn', 'lvyuan-env.cn', 'dfplating.com'])}`,
        unloadingPoint: r.pick(['1', '2', '2']),
        lastCheckTime: dateText(new Date(Date.now() - r.int(1, 90) * DAY)),
        status: r.pick(['1', '1', '1', '0']),
      },
    };
  });
}

function inquiryRows(r: Random, l: Lookups): Generated {
  const regions = ['320505', '320583', '320115', '320214', '320411'];
  return moments(r, 30, 90).map((at, i) => {
    const company = orNull(l.disposerCompanies, r);
    const status = r.pick(['0', '0', '1', '1', '1', '2', '3']);
    const transport = r.pick(['1', '2']);
    const expect = r.decimal(1800, 4200, 2);
    return {
      at,
      record: {
        inquiryNo: `XJ${compact(at)}${String(i + 1).padStart(4, '0')}`,
        companyId: company?.id ?? null,
        linkmanId: company ? orNull(company.linkmanIds, r) : null,
        wasteCategory: r.pick(WASTES).category,
        quantity: r.decimal(1, 120, 3),
        expectPrice: expect,
        inquiryStatus: status,
        quotedPrice: status === '1' ? Number((expect * r.decimal(0.9, 1.25, 2)).toFixed(2)) : null,
        quoteTime: status === '1' ? timeText(new Date(Math.min(Date.now(), at.getTime() + r.int(1, 5) * DAY))) : null,
        needTransport: transport,
        transportRegion: transport === '1' ? r.pick(regions) : null,
        deadline: dateText(new Date(at.getTime() + r.int(7, 30) * DAY)),
        remark: r.pick(['请报含税价，含运输', '需提供危险废物经营许可证复印件', '月度长期合作，量大从优', null]),
      },
    };
  });
}

function contractRows(r: Random): Generated {
  return moments(r, 20).map((at, i) => {
    const begin = new Date(at.getTime() - r.int(0, 300) * DAY);
    const end = new Date(begin.getTime() + 365 * DAY);
    const partyA = r.pick(PRODUCERS);
    const status = end.getTime() < Date.now() ? '3' : r.pick(['2', '2', '2', '1', '0']);
    return {
      at,
      record: {
        contractNo: `HT${begin.getFullYear()}-${String(i + 1).padStart(4, '0')}`,
        contractName: `${partyA}危险废物委托处置合同`,
        partyA,
        partyB: r.pick(DISPOSERS),
        amount: r.decimal(50000, 1200000, 2),
        signDate: dateText(begin),
        beginDate: dateText(begin),
        endDate: dateText(end),
        contractStatus: status,
        signer: r.pick(NAMES),
        signerIdCard: idCard(r),
        content:
          '<p>一、乙方按照《危险废物贮存污染控制标准》接收、运输并处置甲方产生的危险废物。</p><p>二、结算以实际过磅重量为准，每月结算一次。</p>',
      },
    };
  });
}

function vehicleRows(r: Random): Generated {
  const plates = new Set<string>();
  return moments(r, 18).map((at, i) => {
    let p = plate(r);
    while (plates.has(p)) p = plate(r);
    plates.add(p);
    return {
      at,
      record: {
        plateNo: p,
        vehicleType: r.pick(['1', '2', '3', '4', '5']),
        loadCapacity: r.decimal(1.5, 31, 2),
        axleCount: r.int(2, 6),
        driverName: r.pick(NAMES),
        driverPhone: mobile(r),
        driverIdCard: idCard(r),
        licenseNo: `320${r.digits(9)}`,
        escortName: r.pick(NAMES),
        escortPhone: mobile(r),
        vehicleStatus: r.pick(['0', '0', '1', '1', '2', '3']),
        annualDate: dateText(new Date(Date.now() + r.int(10, 330) * DAY)),
        internalCode: `CL-${String(i + 1).padStart(4, '0')}`,
      },
    };
  });
}

function leaveMessageRows(r: Random, l: Lookups): Generated {
  const topics = [
    ['转移联单无法提交', '在全国固废系统提交转移联单时提示“接收单位资质过期”，请协助核实。'],
    ['危废贮存期限咨询', '我司废矿物油已贮存 10 个月，是否需要申请延期？'],
    ['处置价格异议', '本月处置单价较上月上涨 15%，请说明调价依据。'],
    ['新增危废类别备案', '新产线投产后将产生 HW17 表面处理废物，如何在平台备案？'],
    ['运输车辆预约', '下周三需要一辆罐式货车转运废酸约 12 吨。'],
    ['发票开具问题', '上月处置费发票抬头有误，申请作废重开。'],
    ['平台账号权限', '新入职环保专员需要开通危废入库权限。'],
  ] as const;
  return moments(r, 25).map((at) => {
    const [title, content] = r.pick(topics);
    const read = r.pick(['1', '1', '2']);
    return {
      at,
      record: {
        title,
        content,
        contactName: r.pick(NAMES),
        contactPhone: mobile(r),
        email: `${r.pick(['service', 'hse', 'env', 'wh'])}${r.int(10, 99)}@${r.pick(['huarui-chem.cn', 'dfplating.com', 'jyprint.cn'])}`,
        deptId: orNull(l.deptIds, r),
        haveRead: read,
        replyContent: read === '1' ? '您好，已收到您的留言，相关人员将在一个工作日内与您联系。' : null,
        replyTime: read === '1' ? timeText(new Date(Math.min(Date.now(), at.getTime() + r.int(1, 48) * 3_600_000))) : null,
      },
    };
  });
}

function disposalOrderRows(r: Random, l: Lookups, stockInIds: number[], contractNos: string[]): Generated {
  return moments(r, 35, 100).map((at, i) => {
    const w = r.pick(WASTES);
    const region = r.pick(REGIONS);
    const quantity = r.decimal(0.5, 60, 3);
    const price = r.decimal(1600, 5200, 3);
    const prepay = r.pick(['1', '2', '2']);
    const amount = Number((quantity * price).toFixed(2));
    const methods = [...new Set([r.pick(l.processIds), r.pick(l.processIds)])].filter((x) => x !== undefined);
    return {
      at,
      record: {
        orderNo: `CZ${compact(at)}${String(i + 1).padStart(4, '0')}`,
        stockId: orNull(stockInIds, r),
        contractNo: orNull(contractNos, r),
        producerName: r.pick(PRODUCERS),
        producerRegion: region.code,
        producerRegionFmt: region.fmt,
        disposerName: r.pick(DISPOSERS),
        wasteCategory: w.category,
        quantity,
        price,
        amount,
        processMethods: methods.length ? methods.join(',') : null,
        estDisposalTime: dateText(new Date(at.getTime() + r.int(3, 20) * DAY)),
        orderStatus: r.pick(['0', '1', '1', '2', '2', '2', '3']),
        needPrepay: prepay,
        prepayPrice: prepay === '1' ? Number((amount * 0.3).toFixed(2)) : null,
        remark: r.chance(0.25) ? '请提前一天预约卸货时间' : null,
      },
    };
  });
}

function logisticsRows(r: Random, orderIds: number[], vehicleIds: number[]): Generated {
  return moments(r, 30, 90).map((at, i) => {
    const from = r.pick(REGIONS);
    const arrive = new Date(at.getTime() + r.int(2, 9) * 3_600_000);
    const arrived = arrive.getTime() < Date.now() && r.chance(0.8);
    return {
      at,
      record: {
        waybillNo: `WL${compact(at)}${String(i + 1).padStart(4, '0')}`,
        disposalOrderId: r.pick(orderIds),
        vehicleId: r.pick(vehicleIds),
        fromRegion: from.code,
        fromRegionFmt: from.fmt,
        fromAddress: from.address,
        toAddress: r.pick(['江宁区滨江经济开发区丽水大街1186号', '海安市城东镇开发大道中36号', '吴中区临湖镇东山大道888号']),
        weight: r.decimal(0.5, 30, 3),
        freight: r.decimal(800, 6800, 2),
        loadTime: timeText(at),
        arriveTime: arrived ? timeText(arrive) : null,
        orderStatus: arrived ? '2' : r.pick(['0', '1']),
      },
    };
  });
}

async function fill(trx: Transaction<DB>, view: ViewModel, rows: Generated): Promise<number[]> {
  const form = view.page.form;
  const schema = buildSchema({ ...form, fields: form.fields.map((f) => (f.show === 3 && !f.system ? { ...f, show: 1 } : f)) });
  const prepared = rows.map(({ record, at }) => ({
    ...recordValues(view, record, undefined, schema),
    create_time: timeText(at),
    update_time: timeText(at),
  }));
  return insertRows(trx, view, prepared, { username: 'admin', companyId: null, deptId: null });
}

async function bumpSequence(trx: Transaction<DB>, table: 'lc_generation' | 'lc_screen' | 'lc_data_view') {
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(trx);
}

/**
 * Definitions carry their create/update times on the wire; fixed ones make a pull of a freshly seeded
 * server reproduce the committed definitions/ byte for byte (tests/server/cli-roundtrip.test.ts).
 */
const DESIGNED_AT = { create_time: '2026-01-05 09:00:00', update_time: '2026-01-05 09:00:00' };

export async function seedLowcode(trx: Transaction<DB>): Promise<void> {
  const views = new Map<number, ViewModel>();
  for (const v of VIEW_SEEDS) {
    const disMenu = JSON.stringify({ componentName: v.componentName, name: v.title });
    const disTemplate = JSON.stringify(v.template);
    const row = await trx
      .insertInto('lc_generation')
      .values({
        id: v.id,
        name: v.title,
        menu_id: viewMenuId(v.id),
        status: v.status,
        dis_menu: disMenu,
        dis_template: disTemplate,
        ...DESIGNED_AT,
      })
      .returning(['id', 'name', 'status', 'dis_menu', 'dis_template'])
      .executeTakeFirstOrThrow();
    const def = readView(row);
    if (!def) throw new Error(`seeded view ${v.id} is not designed`);
    await syncViewTable(trx, def);
    views.set(v.id, def);
  }
  await trx
    .insertInto('lc_generation')
    .values({
      id: UNDESIGNED_VIEW.id,
      name: UNDESIGNED_VIEW.title,
      menu_id: null,
      status: 0,
      dis_menu: JSON.stringify({ componentName: UNDESIGNED_VIEW.componentName, name: UNDESIGNED_VIEW.title }),
      dis_template: null,
      ...DESIGNED_AT,
    })
    .execute();
  await bumpSequence(trx, 'lc_generation');

  const r = random(20261121);
  const l = await lookups(trx);
  const def = (id: number) => views.get(id) as ViewModel;
  const stockIn = stockInRows(r, l);
  const stockInIds = await fill(trx, def(12), stockIn);
  await fill(
    trx,
    def(13),
    stockOutRows(
      r,
      stockIn.map((s, i) => ({ ...s, id: stockInIds[i] as number })),
    ),
  );
  await fill(trx, def(14), warehouseRows(r, l));
  await fill(trx, def(15), inquiryRows(r, l));
  const contracts = contractRows(r);
  await fill(trx, def(16), contracts);
  const vehicleIds = await fill(trx, def(17), vehicleRows(r));
  await fill(trx, def(18), leaveMessageRows(r, l));
  const orderIds = await fill(
    trx,
    def(19),
    disposalOrderRows(
      r,
      l,
      stockInIds,
      contracts.map((c) => String(c.record.contractNo)),
    ),
  );
  await fill(trx, def(20), logisticsRows(r, orderIds, vehicleIds));

  await trx.insertInto('lc_data_view').values(DATA_VIEWS).execute();
  await bumpSequence(trx, 'lc_data_view');

  await trx
    .insertInto('lc_screen')
    .values(
      SCREEN_SEEDS.map((s) => ({
        id: s.id,
        name: s.title,
        menu_id: s.inMenu ? screenMenuId(s.id) : null,
        status: s.status,
        type: s.type,
        dis_menu: JSON.stringify({ name: s.title, componentName: `vBuild${s.id}` }),
        dis_template: s.template ? JSON.stringify(s.template) : null,
        ...DESIGNED_AT,
      })),
    )
    .execute();
  await bumpSequence(trx, 'lc_screen');
}
