import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { COMPANY } from './ids.js';
import { REGIONS, regionLevel, regionParent } from './regions.js';

const CREDIT_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** Unified social credit code (GB 32100-2015) from its first 17 characters, with a valid check character. */
export function creditCode(base17: string): string {
  const sum = [...base17].reduce((s, ch, i) => s + CREDIT_CHARS.indexOf(ch) * CREDIT_WEIGHTS[i]!, 0);
  return base17 + CREDIT_CHARS[(31 - (sum % 31)) % 31];
}

const regionNames = new Map(REGIONS.map(([code, name]) => [code, name]));
/** Comma-joined codes and slash-joined labels of a district's path, as forms send them. */
function regionOf(district: string): { region: string; region_fmt: string } {
  const path = [district];
  for (let p = regionParent(district); p; p = regionParent(p)) path.unshift(p);
  return { region: path.join(','), region_fmt: path.map((c) => regionNames.get(c)).join('/') };
}

const daysFromToday = (n: number) => sql<string>`current_date + ${n}::integer`;
const timeAgo = (minutes: number) => sql<Date>`now() - ${`${minutes} minutes`}::interval`;

interface CompanyDetails {
  credit: string;
  district: string;
  address: string;
  contact: string;
  phone: string;
  deptCode: string;
}

/** Details of the six companies the accounts seed creates (their names and cities come from there). */
const COMPANY_DETAILS: Record<number, CompanyDetails> = {
  // 苏州华瑞精细化工有限公司
  [COMPANY.producer]: {
    credit: '91320505MA1MK3R2X',
    district: '320505',
    address: '苏州高新区浒墅关经济开发区青花路128号',
    contact: '王丽华',
    phone: '13862100003',
    deptCode: '0201',
  },
  // 江苏绿源环保科技有限公司
  [COMPANY.disposer]: {
    credit: '91320115MA1P8YQ5L',
    district: '320115',
    address: '江宁区滨江经济开发区丽水大街1186号',
    contact: '陈志强',
    phone: '13776600004',
    deptCode: '0301',
  },
  // 南京顺安危险品运输有限公司
  [COMPANY.logistics]: {
    credit: '91320111MA1T4CW7N',
    district: '320111',
    address: '浦口区桥林街道步月路29号',
    contact: '刘海涛',
    phone: '15850500005',
    deptCode: '0401',
  },
  // 无锡新吴区危废集中收集点
  [COMPANY.collector]: {
    credit: '91320214MA1W2HB0E',
    district: '320214',
    address: '新吴区硕放街道振发路235号',
    contact: '张秀英',
    phone: '18915300006',
    deptCode: '0501',
  },
  // 常州东方电镀有限公司
  [COMPANY.producer2]: {
    credit: '91320411MA1KD6P3G',
    district: '320411',
    address: '新北区春江镇圩塘工业集中区江达路18号',
    contact: '赵明轩',
    phone: '13915000007',
    deptCode: '0202',
  },
  // 南通清源固废处置有限公司
  [COMPANY.disposer2]: {
    credit: '91320685MA1GR7U1J',
    district: '320685',
    address: '海安市城东镇开发大道中36号',
    contact: '孙晓燕',
    phone: '18262700008',
    deptCode: '0302',
  },
};

/** Further companies, typed like the seeded producer, disposer or carrier, with the waste categories they produce or take. */
const MORE_COMPANIES: (CompanyDetails & { name: string; like: 'producer' | 'disposer' | 'logistics'; categories: string[] })[] = [
  {
    name: '无锡新吴微电子材料有限公司',
    categories: ['900-402-06', '900-300-34', '900-041-49', '900-047-49'],
    like: 'producer',
    credit: '91320214MA1Y6FL2R',
    district: '320214',
    address: '新吴区新锡路28号',
    contact: '顾俊',
    phone: '13861879024',
    deptCode: '0203',
  },
  {
    name: '常州武进恒达表面处理有限公司',
    categories: ['336-064-17', '900-300-34', '900-399-35'],
    like: 'producer',
    credit: '91320412MA1N0TK8D',
    district: '320412',
    address: '武进国家高新技术产业开发区凤林南路200号',
    contact: '蒋文斌',
    phone: '13915028837',
    deptCode: '0204',
  },
  {
    name: '宁波北仑顺达汽车维修有限公司',
    categories: ['900-214-08', '900-218-08', '900-252-12', '900-052-31', '900-041-49'],
    like: 'producer',
    credit: '91330206MA2H3JX6C',
    district: '330206',
    address: '北仑区新碶街道明州路355号',
    contact: '林国栋',
    phone: '13738459016',
    deptCode: '0205',
  },
  {
    name: '上海金山环境资源处置有限公司',
    categories: ['900-249-08', '900-402-06', '264-011-12', '900-252-12', '772-003-18', '900-041-49'],
    like: 'disposer',
    credit: '91310116MA1FL4Q9B',
    district: '310116',
    address: '金山区漕泾镇目华路1288号',
    contact: '沈卫东',
    phone: '13917652380',
    deptCode: '0303',
  },
  {
    name: '苏州安运危险品物流有限公司',
    categories: [],
    like: 'logistics',
    credit: '91320507MA1R5KT3W',
    district: '320507',
    address: '相城区太平街道金瑞路66号',
    contact: '许建华',
    phone: '13814826650',
    deptCode: '0402',
  },
];

/** National Catalogue of Hazardous Wastes (2021): code, short name, class, class name. */
const WASTE_CATEGORIES: [code: string, name: string, category: string, categoryName: string][] = [
  ['900-249-08', '废矿物油', 'HW08', '废矿物油与含矿物油废物'],
  ['900-214-08', '车辆维修废润滑油', 'HW08', '废矿物油与含矿物油废物'],
  ['900-218-08', '废液压油', 'HW08', '废矿物油与含矿物油废物'],
  ['900-006-09', '废乳化液', 'HW09', '油/水、烃/水混合物或乳化液'],
  ['900-402-06', '废有机溶剂', 'HW06', '废有机溶剂与含有机溶剂废物'],
  ['900-404-06', '含有机溶剂的废物', 'HW06', '废有机溶剂与含有机溶剂废物'],
  ['264-011-12', '染料涂料废物', 'HW12', '染料、涂料废物'],
  ['900-252-12', '喷漆废物', 'HW12', '染料、涂料废物'],
  ['900-014-13', '废粘合剂和密封剂', 'HW13', '有机树脂类废物'],
  ['336-064-17', '表面处理废物', 'HW17', '表面处理废物'],
  ['336-054-17', '镀镍废槽液及污泥', 'HW17', '表面处理废物'],
  ['900-023-29', '废含汞荧光灯管', 'HW29', '含汞废物'],
  ['772-003-18', '焚烧处置残渣', 'HW18', '焚烧处置残渣'],
  ['900-052-31', '废铅蓄电池', 'HW31', '含铅废物'],
  ['900-300-34', '废酸', 'HW34', '废酸'],
  ['900-399-35', '废碱', 'HW35', '废碱'],
  ['900-041-49', '含有或沾染毒性危险废物的废弃包装物', 'HW49', '其他废物'],
  ['900-039-49', '废活性炭', 'HW49', '其他废物'],
  ['900-047-49', '实验室废物', 'HW49', '其他废物'],
];

const CATEGORIES_OF: Record<number, string[]> = {
  [COMPANY.producer]: ['900-249-08', '900-402-06', '264-011-12', '900-041-49', '900-039-49', '900-047-49'],
  [COMPANY.producer2]: ['336-064-17', '336-054-17', '900-300-34', '900-041-49'],
  [COMPANY.disposer]: ['900-249-08', '900-214-08', '900-006-09', '900-402-06', '264-011-12', '336-064-17', '900-041-49', '900-039-49'],
  [COMPANY.disposer2]: ['900-249-08', '900-218-08', '900-300-34', '336-054-17', '772-003-18', '900-041-49'],
  [COMPANY.collector]: ['900-214-08', '900-023-29', '900-052-31', '900-041-49', '900-047-49'],
};

/** Disposal and utilisation methods (licence codes D/R) with their sub-processes. */
const PROCESSES: [name: string, code: string, subs: [string, string][]][] = [
  [
    '焚烧',
    'D10',
    [
      ['回转窑焚烧', 'D10-01'],
      ['热解气化焚烧', 'D10-02'],
      ['水泥窑协同处置', 'D10-03'],
    ],
  ],
  [
    '填埋',
    'D1',
    [
      ['柔性安全填埋', 'D1-01'],
      ['刚性安全填埋', 'D1-02'],
    ],
  ],
  [
    '物化处理',
    'D9',
    [
      ['酸碱中和', 'D9-01'],
      ['氧化还原', 'D9-02'],
      ['破乳分离', 'D9-03'],
      ['固化/稳定化', 'D9-04'],
    ],
  ],
  [
    '资源化利用',
    'R',
    [
      ['溶剂回收/再生', 'R2'],
      ['金属和金属化合物再循环', 'R4'],
      ['再生酸或碱', 'R6'],
      ['废油再提炼', 'R9'],
    ],
  ],
];

const SERVICE_AGREEMENT = `<h2>危废智慧监管服务平台服务协议</h2>
<p>欢迎您使用危废智慧监管服务平台（以下简称“本平台”）。在使用本平台前，请您仔细阅读并充分理解本协议的全部内容。您点击“同意”或实际使用本平台，即视为您已接受本协议。</p>
<h3>一、服务内容</h3>
<p>本平台为产废单位、经营单位、运输单位及收集点提供危险废物申报、库存管理、处置询价、处置订单、物流订单、合同管理及数据统计等信息化服务。</p>
<h3>二、账号注册与使用</h3>
<p>用户应以真实的企业信息申请入驻，并对账号项下的全部操作负责。账号仅限本单位授权人员使用，不得转让、出借。发现账号被盗用时应立即通知平台。</p>
<h3>三、用户义务</h3>
<p>用户应遵守《中华人民共和国固体废物污染环境防治法》《危险废物转移管理办法》等法律法规，如实填报危险废物的种类、数量、去向等信息，不得利用本平台从事违法活动。</p>
<h3>四、平台义务</h3>
<p>平台将采取合理的技术措施保障系统安全稳定运行，并对用户数据进行备份。因系统维护需要暂停服务的，平台将提前公告。</p>
<h3>五、知识产权</h3>
<p>本平台的软件、界面设计、数据结构等知识产权归平台运营方所有。未经书面许可，任何人不得复制、修改或用于其他商业目的。</p>
<h3>六、责任限制</h3>
<p>因不可抗力、网络运营商故障或用户自身原因造成的服务中断或数据损失，平台不承担责任，但将积极协助恢复。</p>
<h3>七、协议的变更与终止</h3>
<p>平台有权根据法律法规变化和业务需要修订本协议，修订后的协议将在平台公布。用户违反本协议的，平台有权暂停或终止其使用资格。</p>
<h3>八、争议解决</h3>
<p>本协议适用中华人民共和国法律。因本协议产生的争议，双方应协商解决；协商不成的，提交平台运营方所在地人民法院诉讼解决。</p>`;

const ENTRY_AGREEMENT = `<h2>企业入驻协议</h2>
<p>申请入驻企业（以下简称“入驻方”）与平台运营方经平等协商，就入驻危废智慧监管服务平台事宜达成如下协议。</p>
<h3>一、入驻条件</h3>
<p>入驻方应为依法设立的企业法人或其他组织，具有有效的营业执照；从事危险废物收集、贮存、利用、处置经营活动的，还应持有有效的危险废物经营许可证；从事运输的，应持有道路危险货物运输许可证。</p>
<h3>二、资料审核</h3>
<p>入驻方应提交企业名称、统一社会信用代码、企业地址、联系人及联系方式等资料，并保证资料真实、准确、完整。平台在收到申请后5个工作日内完成审核。</p>
<h3>三、入驻方的权利与义务</h3>
<p>入驻方有权使用平台提供的各项服务；应按照国家有关规定如实记录危险废物的产生、贮存、转移、利用和处置情况，及时更新企业信息和资质证照。</p>
<h3>四、交易规范</h3>
<p>通过平台开展的处置询价、报价、签约及订单履行，双方应遵守诚实信用原则，按照合同约定履行义务，不得虚构交易或恶意压价。</p>
<h3>五、信息安全</h3>
<p>入驻方应妥善保管账号和密码，对账号下的操作承担责任；不得擅自获取、传播其他企业的经营数据。</p>
<h3>六、退出机制</h3>
<p>入驻方可申请注销账号。入驻方存在提供虚假资料、违法转移危险废物等行为的，平台有权终止服务并依法向生态环境主管部门报告。</p>`;

const PRIVACY_CLAUSES: [string, string][] = [
  [
    '我们收集的信息',
    '为向您提供服务，我们会收集您在注册和使用过程中主动提供的信息，包括企业名称、统一社会信用代码、企业地址、联系人姓名、手机号码、电子邮箱，以及您填报的危险废物种类、数量、贮存和转移信息。',
  ],
  [
    '我们如何使用信息',
    '我们使用上述信息用于账号注册与身份核验、业务办理、订单撮合、合同管理、统计分析和向监管部门报送法定数据，不会将其用于与服务无关的用途。',
  ],
  ['设备与日志信息', '为保障系统安全，我们会记录您的登录时间、IP地址、浏览器类型及操作日志，用于识别异常登录、排查故障和安全审计。'],
  [
    'Cookie及同类技术',
    '我们使用Cookie保存您的登录状态、界面布局和语言偏好。您可以在浏览器中清除Cookie，但这可能导致部分功能无法正常使用。',
  ],
  ['信息的存储', '您的信息存储于中华人民共和国境内的服务器。我们仅在实现服务目的所必需的期限内保存您的信息，法律法规另有规定的除外。'],
  ['信息安全措施', '我们采用传输加密、密码加盐哈希存储、访问权限控制和数据备份等措施保护您的信息，并定期开展安全评估和员工培训。'],
  [
    '信息的共享',
    '未经您同意，我们不会与第三方共享您的信息，但为完成交易需向合同相对方提供必要的联系信息，或依法向生态环境主管部门报送数据的情形除外。',
  ],
  ['信息的转让', '我们不会转让您的个人信息。如发生合并、收购或破产清算，我们将要求新的持有方继续受本政策约束，否则将重新征求您的同意。'],
  ['信息的公开披露', '我们仅在获得您明确同意或基于法律法规、诉讼、政府主管部门强制性要求的情况下，才会公开披露您的信息。'],
  ['您的权利', '您有权查询、更正、补充您的信息，有权注销账号，有权撤回已作出的授权同意。您可以通过个人中心或联系客服行使上述权利。'],
  ['账号注销', '您可以申请注销账号。注销后我们将停止为您提供服务，并依法删除或匿名化处理您的信息，法律法规要求保存的交易和转移记录除外。'],
  ['未成年人保护', '本平台面向企业用户提供服务，不面向未满十八周岁的未成年人。如发现误收集未成年人信息，我们将尽快删除。'],
  ['第三方服务', '平台中可能包含跳转至生态环境部门固废管理信息系统等第三方服务的链接，第三方对您信息的处理适用其自身的隐私政策。'],
  ['本政策的更新', '我们可能适时修订本政策。修订后的政策将在平台公布，重大变更将通过站内消息或弹窗方式通知您。'],
  ['联系我们', '如您对本政策有任何疑问、意见或投诉，可通过平台留言功能或客服电话025-52680000与我们联系，我们将在15个工作日内答复。'],
];

const CHINESE_NUMBERS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二', '十三', '十四', '十五'];

const PRIVACY_POLICY = `<h2>隐私政策</h2>
<p>危废智慧监管服务平台（以下简称“我们”）深知个人信息和企业数据对您的重要性，并会尽全力保护您的信息安全。请您在使用本平台前仔细阅读本政策。</p>
${PRIVACY_CLAUSES.map(([title, text], i) => `<h3>${CHINESE_NUMBERS[i]}、${title}</h3>\n<p>${text}</p>`).join('\n')}`;

const AUTHORIZATION_AGREEMENT = `<h2>数据授权协议</h2>
<p>为实现危险废物全过程信息化管理，您（授权方）同意授权危废智慧监管服务平台（被授权方）在下列范围内使用您的数据。</p>
<h3>一、授权范围</h3>
<p>企业基本信息、危险废物管理计划、危险废物产生及贮存台账、转移联单、处置合同及订单信息。</p>
<h3>二、授权用途</h3>
<p>用于与生态环境主管部门固体废物管理信息系统进行数据对接，以及生成企业危险废物管理统计报表。</p>
<h3>三、授权期限</h3>
<p>自您同意本协议之日起至您注销平台账号之日止。您可以随时通过个人中心撤回授权，撤回不影响撤回前基于授权已进行的数据处理。</p>
<h3>四、数据保护</h3>
<p>被授权方应采取必要措施保障数据安全，不得超出授权范围使用数据，不得向无关第三方提供数据。</p>`;

const SYS_MESSAGES: [title: string, content: string, minutesAgo: number, read: boolean][] = [
  [
    '<p>关于开展2026年度危险废物规范化环境管理评估工作的通知</p>',
    '<p>各有关单位：</p><p>根据《危险废物规范化环境管理评估工作方案》，请各单位于本月底前完成危险废物管理计划备案、台账核对和自查自评工作，并在平台上传自查报告。</p>',
    60 * 24 * 6,
    true,
  ],
  [
    '<p>平台系统升级维护公告</p>',
    '<p>平台将于本周六 22:00 至次日 02:00 进行系统升级维护，期间暂停处置订单和物流订单的提交，请提前做好业务安排。</p>',
    60 * 24 * 3,
    true,
  ],
  [
    '<p>危险废物贮存设施<strong>台账核查</strong>提醒</p>',
    '<p>请核对本单位各仓库的危险废物入库、出库记录，确保贮存量与台账一致，贮存期限不超过一年。</p>',
    60 * 26,
    false,
  ],
  [
    '<p>您的合同即将到期，请及时续签</p>',
    '<p>您有合同将在30天内到期，请在合同管理中查看并及时与处置单位办理续签手续，避免影响危险废物转移。</p>',
    180,
    false,
  ],
  [
    '<p>新版《国家危险废物名录》培训通知</p>',
    '<p>平台将于下周三 14:00 举办线上培训，解读名录调整内容及豁免管理清单，欢迎各单位环保负责人参加。</p>',
    25,
    false,
  ],
];

const VISITS: [daysAgo: number, pv: number, ip: number][] = [
  [6, 286, 73],
  [5, 341, 88],
  [4, 312, 81],
  [3, 198, 52],
  [2, 176, 47],
  [1, 364, 95],
  [0, 121, 36],
];

export async function seedBusiness(trx: Transaction<DB>): Promise<void> {
  await trx
    .insertInto('region')
    .values(REGIONS.map(([code, name]) => ({ code, name, level: regionLevel(code), parent_code: regionParent(code) })))
    .execute();

  const users = await trx.selectFrom('sys_user').select(['id', 'username', 'nick_name']).execute();
  const userId = (username: string) => users.find((u) => u.username === username)?.id ?? null;

  for (const [id, d] of Object.entries(COMPANY_DETAILS)) {
    await trx
      .updateTable('company')
      .set({
        credit_code: creditCode(d.credit),
        ...regionOf(d.district),
        address: d.address,
        contact_name: d.contact,
        contact_phone: d.phone,
        // The accounts seed may already tie the company to its department code.
        dept_code: sql<string>`coalesce(dept_code, ${d.deptCode})`,
      })
      .where('id', '=', Number(id))
      .execute();
  }
  const types = await trx
    .selectFrom('company')
    .select(['id', 'type'])
    .where('id', 'in', [COMPANY.producer, COMPANY.disposer, COMPANY.logistics])
    .execute();
  const typeOf = (id: number) => types.find((t) => t.id === id)?.type ?? '';
  const more = await trx
    .insertInto('company')
    .values(
      MORE_COMPANIES.map((c) => ({
        name: c.name,
        type: typeOf(COMPANY[c.like]),
        credit_code: creditCode(c.credit),
        ...regionOf(c.district),
        address: c.address,
        contact_name: c.contact,
        contact_phone: c.phone,
        dept_code: c.deptCode,
      })),
    )
    .returning('id')
    .execute();

  // Linkmen: the company contact first, then a second person for the larger ones.
  const linkmen: { company_id: number; name: string; phone: string; position: string }[] = [
    ...Object.entries(COMPANY_DETAILS).map(([id, d]) => ({
      company_id: Number(id),
      name: d.contact,
      phone: d.phone,
      position: '环保负责人',
    })),
    ...MORE_COMPANIES.map((c, i) => ({ company_id: more[i]!.id, name: c.contact, phone: c.phone, position: '环保负责人' })),
    { company_id: COMPANY.producer, name: '李秀英', phone: '13851608842', position: '危废仓库管理员' },
    { company_id: COMPANY.disposer, name: '赵永刚', phone: '13701587734', position: '收运调度' },
    { company_id: COMPANY.disposer, name: '孙丽华', phone: '13584022916', position: '商务经理' },
    { company_id: COMPANY.producer2, name: '吴海燕', phone: '13961205583', position: '安全环保专员' },
    { company_id: COMPANY.disposer2, name: '郑国华', phone: '13862714095', position: '收运调度' },
    { company_id: COMPANY.collector, name: '钱伟', phone: '13962117428', position: '收集点负责人' },
  ];
  // Warehouses and contracts are records of the 企业仓库 and 合同管理 views (records.ts), which name these linkmen.
  await trx.insertInto('company_linkman').values(linkmen).execute();

  await trx
    .insertInto('waste_category')
    .values(WASTE_CATEGORIES.map(([code, name, category, category_name]) => ({ code, name, category, category_name })))
    .execute();
  await trx
    .insertInto('company_waste_category')
    .values([
      ...Object.entries(CATEGORIES_OF).flatMap(([id, codes]) => codes.map((code) => ({ company_id: Number(id), code }))),
      ...MORE_COMPANIES.flatMap((c, i) => c.categories.map((code) => ({ company_id: more[i]!.id, code }))),
    ])
    .execute();

  for (const [i, [name, code, subs]] of PROCESSES.entries()) {
    const { id } = await trx
      .insertInto('disposal_process')
      .values({ name, code, sort: i + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('disposal_process')
      .values(subs.map(([n, c], j) => ({ pid: id, name: n, code: c, sort: j + 1 })))
      .execute();
  }

  // Every demo user gets the notices; the older ones already read.
  const demo = users.filter((u) => ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector'].includes(u.username));
  const messages = demo.flatMap((u) =>
    SYS_MESSAGES.map(([title, content, minutes, read]) => ({
      user_id: u.id,
      title,
      content,
      have_read: read,
      create_time: timeAgo(minutes),
    })),
  );
  if (messages.length) await trx.insertInto('sys_message').values(messages).execute();

  const leave = (to: string, from: string, content: string, minutes: number, read: boolean) => {
    const recipient = userId(to);
    const sender = users.find((u) => u.username === from);
    return recipient && sender
      ? [
          {
            user_id: recipient,
            sender_id: sender.id,
            sender_name: sender.nick_name,
            content,
            have_read: read,
            create_time: timeAgo(minutes),
          },
        ]
      : [];
  };
  const leaveMessages = [
    ...leave('admin', 'producer', '我司申请新增危废类别HW12染料涂料废物，资料已在企业信息中上传，请尽快审核。', 60 * 30, true),
    ...leave('admin', 'disposer', '处置单WF-CZ-20260318-006的过磅数据有误，已重新上传磅单，请协助更正。', 300, false),
    ...leave('admin', 'logistics', '本周新增两辆危化品运输车（苏A·D3621、苏A·F7752），请帮忙在平台登记备案。', 45, false),
    ...leave('producer', 'disposer', '贵司下周一的收运计划已排定，请提前将废矿物油桶装密封并张贴危废标签。', 120, false),
    ...leave('producer', 'admin', '请于本月底前完成2026年度危险废物管理计划备案。', 60 * 48, true),
    ...leave('disposer', 'producer', '合同HT2026-0012即将到期，我司希望续签一年，请安排商务对接。', 90, false),
    ...leave('disposer', 'collector', '收集点本月累计收集废铅蓄电池3.2吨，申请安排转运。', 15, false),
    ...leave('logistics', 'disposer', '明早焚烧车间卸料区恢复收货，请安排两车废矿物油进场。', 35, false),
    ...leave('collector', 'producer', '我司有少量实验室废物需委托收集，请告知本周的上门收集时间。', 240, false),
  ];
  if (leaveMessages.length) await trx.insertInto('leave_message').values(leaveMessages).execute();

  await trx
    .insertInto('privacy_policy')
    .values([
      { type: 1, title: '服务协议', content: SERVICE_AGREEMENT },
      { type: 2, title: '入驻协议', content: ENTRY_AGREEMENT },
      { type: 3, title: '隐私政策', content: PRIVACY_POLICY },
      { type: 4, title: '授权协议', content: AUTHORIZATION_AGREEMENT },
    ])
    .execute();

  await trx
    .insertInto('visits')
    .values(VISITS.map(([ago, pv, ip]) => ({ date: daysFromToday(-ago), pv, ip })))
    .execute();

  const typeLabels = await trx
    .selectFrom('sys_dict_detail as d')
    .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
    .select(['d.value', 'd.label'])
    .where('t.name', '=', 'companyType')
    .execute();
  const apply = (name: string, like: number, district: string, applicant: string, phone: string, status: number) => ({
    name,
    type: typeOf(like),
    comtype: typeLabels.find((t) => t.value === typeOf(like))?.label ?? null,
    ...regionOf(district),
    applicant,
    phone,
    source: 2,
    status,
  });
  await trx
    .insertInto('company_application')
    .values([
      apply('苏州相城恒远塑业有限公司', COMPANY.producer, '320507', '马俊峰', '13962563817', 0),
      apply('扬州江都宏达化工有限公司', COMPANY.producer, '321012', '丁红梅', '13805256419', 0),
      apply('嘉兴秀洲绿能再生资源有限公司', COMPANY.disposer, '330411', '潘志明', '13867308251', 1),
    ])
    .execute();
}
