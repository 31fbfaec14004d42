import { SCREENS, VIEWS } from './ids.js';

/**
 * Seeded view, data-view and screen definitions: realistic hazardous-waste pages. Together they use
 * every data type, field kind, `show` value, relation form, remote-option param type, divider form and
 * button action a view definition may hold, and in a few places the lenient wire forms a real server sends
 * (booleans as 1/"1"/"true", numbers as strings, lists as comma strings, `{items}` lists), because the
 * CLI and the renderer must cope with them.
 */

type Conf = Record<string, unknown>;

interface FieldSpec {
  name: string;
  chName: string;
  dataType: 'varchar' | 'long' | 'decimal' | 'datetime';
  /** configure keys shared by the table column and the form input */
  common?: Conf;
  /** table-only keys; false: not a column */
  table?: Conf | false;
  /** form-only keys; false: not an input */
  form?: Conf | false;
}

/** A field: its name, Chinese name and data type, then where it shows and how. */
const spec = (
  name: string,
  chName: string,
  dataType: FieldSpec['dataType'],
  parts: Omit<FieldSpec, 'name' | 'chName' | 'dataType'> = {},
): FieldSpec => ({
  name,
  chName,
  dataType,
  ...parts,
});

const field = (s: FieldSpec, configure: Conf) => ({ name: s.name, chName: s.chName, dataType: s.dataType, linked: false, configure });

function columns(specs: FieldSpec[]) {
  return specs.filter((s) => s.table !== false).map((s, i) => field(s, { sort: i + 1, show: true, ...s.common, ...(s.table || {}) }));
}

function inputs(specs: FieldSpec[]) {
  return specs.filter((s) => s.form !== false).map((s, i) => field(s, { sort: i + 1, show: 1, ...s.common, ...(s.form || {}) }));
}

const PLATE_PATTERN = '^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z][A-HJ-NP-Z0-9]{4,5}[A-HJ-NP-Z0-9挂学警港澳]$';
const DATETIME = 'yyyy-MM-dd hh:mm:ss';
const DATE = 'yyyy-MM-dd';

const basic = (viewId: number, extra: Conf = {}) => ({
  add: true,
  del: true,
  edit: true,
  look: true,
  download: true,
  import: true,
  template: true,
  orderNumber: true,
  operation: true,
  operationWidth: 220,
  sortName: 'id',
  sortType: 'desc',
  importSubmitUrl: `/api/general/${viewId}/import`,
  ...extra,
});

const dialog = (viewId: number, extra: Conf = {}) => ({
  width: '60%',
  labelWidth: '110px',
  inputWidth: '250px',
  inline: true,
  submitUrl: '',
  detailUrl: '/api/general/detail',
  key: 'id',
  export: `/api/general/export/${viewId}`,
  suffix: '',
  initGroovy: false,
  ...extra,
});

/** Options loaded from a list or tree endpoint. */
const options = (type: 'list' | 'tree', url: string, more: Conf = {}) => ({
  sportData: true,
  sportData_type: type,
  sportData_url: url,
  ...more,
});

/**
 * Company types (companyType) a party is picked among: a waste's producer is a producing company, a
 * collection point, or a disposer handing on its own residues; its disposer a disposal company; its
 * carrier a logistics company.
 */
const PRODUCERS = '1,2,4';
const DISPOSERS = '2';
const CARRIERS = '3';

/** A company picked among the active companies of the given types; the record stores its id. */
const companies = (types: string) => options('list', '/api/company/list', { sportData_params: [{ key: 'type', type: 1, value: types }] });

/** The 危废类别 picked from the national catalogue's classes. */
/**
 * 创建时间 in the search form of a list of events: the list offers the 创建时间 range and opens on
 * its default (90 days back). Not a table column by default; the server sets it, so no form input.
 */
const createdAt = () =>
  spec('createTime', '创建时间', 'datetime', {
    common: { timeFmt: DATETIME },
    table: { search: true, sortable: true, show: false, width: 170 },
    form: false,
  });

const wasteCategory = (form: Conf = { required: true }) =>
  spec('wasteCategory', '危废类别', 'varchar', {
    common: { dict: 'wasteCategory' },
    table: { search: true, width: 220, overflow: true },
    form,
  });

/**
 * A document number the server assigns when the form leaves it empty: prefix, date and a 4-digit serial
 * of the day, fixed once saved (a locked field of pattern prefix + 12 digits).
 */
const docNo = (name: string, chName: string, prefix: string, form: Conf = {}) =>
  spec(name, chName, 'varchar', {
    table: { search: true, sortable: true, width: 170 },
    form: { pattern: `^${prefix}\\d{12}$`, editLock: true, tips: `留空由系统生成：${prefix} + 日期 + 4 位流水号`, ...form },
  });

/** Form dividers, each above the field it names, in order. */
const dividers = (titles: Record<string, string>) => Object.entries(titles).map(([position, chName]) => ({ position, chName }));

/** A button of the list (position fun) or of each row (opt), and what it does. */
const button = (name: string, chName: string, position: 'fun' | 'opt', action: string, more: Conf = {}) => ({
  name,
  chName,
  configure: { position, action, ...more },
});

/** A row button shown only where the row's `field` holds `value`, to users with one of the permissions of `root`. */
const shownButton = (
  name: string,
  chName: string,
  action: string,
  [item, value]: [field: string, value: string],
  root: string[],
  more: Conf,
) => button(name, chName, 'opt', action, { ...more, root, showRelation_item: item, showRelation_value: value });

/** A view's buttons in the order they show: each one's sort is its place, counted from `first`. */
const inOrder = (buttons: ReturnType<typeof button>[], first = 1) =>
  buttons.map((b, i) => ({ ...b, configure: { ...b.configure, sort: first + i } }));

// ----- 12 危废入库 -----
const stockIn: FieldSpec[] = [
  docNo('stockNo', '入库单号', 'RK', { tips: '留空由系统生成：RK + 日期 + 4 位流水号，如 RK202611210001' }),
  wasteCategory({ required: 1, inputWidth: '250px' }),
  spec('wasteCode', '废物代码', 'varchar', {
    table: { width: 120, align: 'center' },
    form: { required: true, pattern: '^\\d{3}-\\d{3}-\\d{2}$', tips: '《国家危险废物名录》八位代码，如 900-249-08' },
  }),
  spec('wasteName', '危废名称', 'varchar', {
    table: { search: 'true', width: 160, overflow: 1 },
    form: { required: '1' },
  }),
  spec('quantity', '入库数量', 'decimal', {
    common: { unit: '吨', decimals: 3 },
    table: { width: '120', align: 'right', sortable: true },
    form: { required: 1, min: '0.001', max: '500', inputWidth: '200px' },
  }),
  spec('packageType', '包装方式', 'varchar', {
    common: { dict: 'package_type' },
    table: { width: 100 },
    form: { required: true, defaultValue: '1' },
  }),
  spec('warehouseId', '入库仓库', 'long', {
    common: options('list', '/api/companyWarehouse/list', { sportData_params: [] }),
    table: { width: 170, overflow: true },
    form: { required: true },
  }),
  spec('inTime', '入库时间', 'datetime', {
    common: { timeFmt: DATETIME },
    table: { search: true, sortable: true, width: 170 },
    form: { required: true },
  }),
  spec('status', '状态', 'varchar', {
    common: { dict: 'stockStatus' },
    table: { search: true, tags: true, width: 90, align: 'center' },
    form: { show: 3, defaultValue: '0' },
  }),
  spec('handler', '经办人', 'varchar', { table: { width: 90 }, form: { required: true } }),
  spec('handlerPhone', '经办人电话', 'varchar', { table: { show: false, width: 130 }, form: { validator: 'mobile' } }),
  spec('photos', '现场照片', 'varchar', {
    common: { file: 'image', fileType: ['jpg', 'jpeg', 'png'], fileSize: 3 },
    table: { show: false },
  }),
  spec('attachments', '入库单附件', 'varchar', {
    common: { file: 'file', fileType: 'pdf,doc,docx,xls,xlsx', fileSize: '5' },
    table: false,
  }),
  spec('remark', '备注', 'varchar', { common: { textarea: true, rows: 3 }, table: { overflow: true, width: 200 } }),
  createdAt(),
];

// ----- 13 危废出库 -----
const stockOut: FieldSpec[] = [
  spec('outNo', '出库单号', 'varchar', {
    table: { search: true, sortable: true, width: 170 },
    form: { required: true, pattern: '^CK\\d{12}$', editLock: '1' },
  }),
  spec('stockInId', '关联入库单', 'long', {
    common: { sportData: '1', sportData_type: 'list', sportData_url: '/api/general/allList/12/queryLink' },
    table: { width: 170 },
    form: { required: true },
  }),
  wasteCategory(),
  spec('quantity', '出库数量', 'decimal', {
    common: { unit: '吨', decimals: 3 },
    table: { sortable: 1, align: 'right', width: 110 },
    form: { required: true, min: 0.001, max: 500 },
  }),
  spec('outTime', '出库时间', 'datetime', {
    common: { timeFmt: DATETIME },
    table: { sortable: true, search: true, width: 170 },
    form: { required: true },
  }),
  spec('receiver', '接收单位', 'varchar', {
    table: { search: true, overflow: true, width: 220 },
    form: { required: true },
  }),
  spec('transportMode', '运输方式', 'varchar', { common: { dict: 'logistics_inquiry_type' }, table: { width: 100 } }),
  spec('plateNo', '车牌号', 'varchar', { table: { width: 110 }, form: { pattern: PLATE_PATTERN, tips: '如 苏A12345' } }),
  spec('driverPhone', '司机电话', 'varchar', { table: { width: 130 }, form: { validator: 'mobile' } }),
  spec('manifestNo', '转移联单号', 'varchar', {
    table: { width: 170, show: '0' },
    form: { pattern: '^\\d{16}$', tips: '全国固体废物管理信息系统生成的 16 位电子联单号' },
  }),
  spec('status', '出库状态', 'varchar', {
    common: { dict: 'orderStatus' },
    table: { tags: true, search: true, width: 90, align: 'center' },
    form: { show: 3, defaultValue: '0' },
  }),
  spec('remark', '备注', 'varchar', { common: { textarea: '1', rows: '2' }, table: { overflow: true } }),
  createdAt(),
];

// ----- 14 企业仓库 -----
const warehouse: FieldSpec[] = [
  spec('name', '仓库名称', 'varchar', { table: { search: true, width: 180 }, form: { required: true } }),
  spec('deptId', '所属部门', 'long', {
    common: options('tree', '/api/dept/find'),
    table: { width: 140 },
  }),
  spec('region', '所在地区', 'varchar', {
    common: { city: true },
    table: { width: 200, search: true },
    form: { required: true },
  }),
  spec('address', '详细地址', 'varchar', {
    table: { overflow: true, width: 240 },
    form: { required: true, inputWidth: '520px' },
  }),
  spec('capacity', '设计贮存能力', 'decimal', {
    common: { decimals: 2, unit: '吨' },
    table: { align: 'right', sortable: true },
    form: { min: 0, max: 100000 },
  }),
  spec('area', '占地面积', 'decimal', {
    common: { decimals: 1, unit: '㎡' },
    table: { align: 'right' },
    form: { min: '0' },
  }),
  spec('linkman', '负责人', 'varchar', { form: { required: true } }),
  spec('phone', '联系电话', 'varchar', { form: { required: true, validator: 'phoneOrLandline' } }),
  spec('dutyTel', '值班座机', 'varchar', {
    table: { show: false },
    form: { validator: 'landline', tips: '区号-号码，如 0512-66881234' },
  }),
  spec('email', '联系邮箱', 'varchar', { table: { show: false }, form: { validator: 'email' } }),
  spec('unloadingPoint', '是否卸货点', 'varchar', {
    common: { dict: 'yesOrNo' },
    table: { width: 100, align: 'center' },
    form: { defaultValue: '2' },
  }),
  spec('lastCheckTime', '最近检查日期', 'datetime', {
    common: { timeFmt: DATE },
    table: { sortable: true },
    form: { show: 3 },
  }),
  spec('status', '状态', 'varchar', {
    common: { dict: 'commonStatus' },
    table: { tags: true, search: true },
    form: { defaultValue: '1' },
  }),
];

// ----- 15 处置询价 -----
const disposalInquiry: FieldSpec[] = [
  // Numbered by the server (XJ, the day and the company's serial), shown read-only.
  spec('inquiryNo', '询价单号', 'varchar', {
    table: { search: true, width: 170 },
    form: { show: 3, disabled: '1', pattern: '^XJ\\d{12}$', editLock: '1' },
  }),
  spec('companyId', '处置企业', 'long', {
    // Only disposal companies quote for disposal.
    common: companies(DISPOSERS),
    table: { width: 220, overflow: true },
    form: { required: true },
  }),
  spec('linkmanId', '对接联系人', 'long', {
    common: options('list', '/api/companyLinkman/list', { sportData_params: [{ key: 'companyId', type: 2, value: 'companyId' }] }),
    table: { width: 110 },
  }),
  // The stock the inquiry is raised from: its warehouse is where the dashboard counts the waste as 询价中.
  spec('stockId', '来源入库单', 'long', {
    common: options('list', '/api/general/allList/12/queryLink'),
    table: { width: 170 },
  }),
  wasteCategory(),
  spec('quantity', '预计数量', 'decimal', {
    common: { decimals: 3, unit: '吨' },
    table: { align: 'right', sortable: true },
    form: { required: true, min: '0.001' },
  }),
  spec('expectPrice', '期望单价', 'decimal', {
    common: { decimals: 2, unit: '元/吨', money: true },
    table: { align: 'right' },
    form: { min: 0 },
  }),
  spec('inquiryStatus', '询价状态', 'varchar', {
    common: { dict: 'inquiryStatus' },
    table: { tags: true, search: true, width: 100, align: 'center' },
    form: {
      required: true,
      defaultValue: '0',
      showRelation: { item: ['quotedPrice', 'quoteTime'], value: '1' },
      requiredRelation: { item: 'quotedPrice,quoteTime', value: '1' },
    },
  }),
  spec('quotedPrice', '报价单价', 'decimal', {
    common: { decimals: 2, unit: '元/吨', money: 'true' },
    table: { align: 'right', sortable: true },
    form: { min: 0 },
  }),
  spec('quoteTime', '报价时间', 'datetime', { common: { timeFmt: DATETIME }, table: { width: 170 } }),
  spec('needTransport', '是否需要运输', 'varchar', {
    common: { dict: 'yesOrNo' },
    table: { width: 110, align: 'center' },
    form: {
      defaultValue: '2',
      showRelation: { item: 'transportRegion', value: '1' },
      requiredRelation: { item: ['transportRegion'], value: '1' },
    },
  }),
  spec('transportRegion', '起运地区', 'varchar', {
    common: options('tree', '/api/region/regionTreeList'),
    table: { show: false },
  }),
  spec('deadline', '报价截止日期', 'datetime', { common: { timeFmt: DATE }, table: { sortable: true, width: 120 } }),
  spec('remark', '询价说明', 'varchar', { common: { textarea: true, rows: 4 }, table: { overflow: true } }),
];

// ----- 16 合同管理 -----
const contract: FieldSpec[] = [
  spec('contractNo', '合同编号', 'varchar', {
    table: { search: true, sortable: true, width: 140 },
    form: { required: true, pattern: '^HT\\d{4}-\\d{4}$', editLock: true, tips: '如 HT2026-0012' },
  }),
  spec('contractName', '合同名称', 'varchar', {
    table: { overflow: true, width: 240, search: true },
    form: { required: true },
  }),
  spec('partyAId', '甲方（产废单位）', 'long', {
    common: companies(PRODUCERS),
    table: { search: true, width: 220, overflow: true },
    form: { required: true },
  }),
  spec('partyBId', '乙方（处置单位）', 'long', {
    common: companies(DISPOSERS),
    table: { width: 220, overflow: true },
    form: { required: true },
  }),
  // Where party A keeps the waste the contract hands over: a warehouse of the company drafting it.
  spec('warehouseId', '贮存仓库', 'long', {
    common: options('list', '/api/companyWarehouse/list', { sportData_params: [] }),
    table: { width: 170, overflow: true },
    form: { tips: '甲方暂存所委托危废的仓库' },
  }),
  spec('amount', '合同金额', 'decimal', {
    common: { decimals: 2, unit: '元', money: true },
    table: { align: 'right', sortable: true, width: 140 },
    form: { required: true, min: 0, max: 100000000 },
  }),
  spec('signDate', '签订日期', 'datetime', {
    common: { timeFmt: DATE },
    table: { sortable: true, search: true },
    form: { required: true },
  }),
  spec('beginDate', '生效日期', 'datetime', { common: { timeFmt: DATE }, form: { required: true } }),
  spec('endDate', '到期日期', 'datetime', {
    common: { timeFmt: DATE },
    table: { sortable: true },
    form: { required: true },
  }),
  spec('contractStatus', '合同状态', 'varchar', {
    common: { dict: 'contractStatus' },
    table: { tags: true, search: true, align: 'center' },
    form: { required: true, defaultValue: '0' },
  }),
  spec('signer', '甲方签约人', 'varchar', { table: { width: 100 } }),
  spec('signerIdCard', '签约人身份证号', 'varchar', { table: false, form: { validator: 'idCard' } }),
  spec('attachments', '合同附件', 'varchar', {
    common: { file: 'file', fileType: ['pdf', 'doc', 'docx'], fileSize: 3 },
    table: false,
  }),
  spec('content', '主要条款', 'varchar', { common: { editor: true }, table: false }),
];

// ----- 17 车辆信息 -----
const vehicle: FieldSpec[] = [
  spec('plateNo', '车牌号', 'varchar', {
    table: { search: 'true', width: 110 },
    form: { required: 'true', pattern: PLATE_PATTERN, editLock: 'true', tips: '如 苏A12345' },
  }),
  spec('vehicleType', '车辆类型', 'varchar', {
    common: { dict: 'motorcycle_type' },
    table: { search: '1', width: 140 },
    form: { required: '1' },
  }),
  spec('loadCapacity', '核定载质量', 'decimal', {
    common: { decimals: '2', unit: '吨' },
    table: { align: 'right', sortable: 'true' },
    form: { required: 'true', min: '0.5', max: '49' },
  }),
  spec('axleCount', '轴数', 'long', {
    table: { align: 'center', width: '70' },
    form: { min: '2', max: '6', defaultValue: '2' },
  }),
  spec('driverName', '驾驶员', 'varchar', { table: { width: 90 }, form: { required: 'true' } }),
  spec('driverPhone', '驾驶员手机', 'varchar', { table: { width: 130 }, form: { required: 'true', validator: 'phone' } }),
  spec('driverIdCard', '驾驶员身份证号', 'varchar', { table: false, form: { validator: 'idCard' } }),
  spec('licenseNo', '道路运输证号', 'varchar', { table: { width: 140, show: 'false' }, form: { pattern: '^\\d{12}$' } }),
  spec('escortName', '押运员', 'varchar', { table: { width: 90 } }),
  spec('escortPhone', '押运员手机', 'varchar', { table: { show: 0 }, form: { validator: 'mobile' } }),
  spec('vehicleStatus', '车辆状态', 'varchar', {
    common: { dict: 'vehicleStatus' },
    table: { tags: '1', search: '1', align: 'center' },
    form: { defaultValue: '0' },
  }),
  spec('annualDate', '年检到期', 'datetime', { common: { timeFmt: DATE }, table: { sortable: '1' } }),
  spec('internalCode', '内部编号', 'varchar', { table: false, form: { show: '2', defaultValue: 'CL-0000' } }),
  spec('gpsNo', '北斗终端号', 'varchar', { table: { show: false }, form: { show: '4' } }),
  spec('photo', '车辆照片', 'varchar', {
    common: { file: 'image', fileType: 'jpg,jpeg,png', fileSize: '1' },
    table: false,
  }),
];

// ----- 18 留言管理 (no formOption: the form reads tableOption) -----
const leaveMessage: FieldSpec[] = [
  spec('title', '留言标题', 'varchar', { common: { search: true, required: true, overflow: true, width: 220 } }),
  spec('content', '留言内容', 'varchar', {
    common: { textarea: true, rows: 4, required: true, overflow: true, width: 300 },
  }),
  spec('contactName', '留言人', 'varchar', { common: { required: true, width: 90 } }),
  spec('contactPhone', '联系电话', 'varchar', { common: { validator: 'mobile', width: 130 } }),
  spec('email', '电子邮箱', 'varchar', { common: { validator: 'email', show: 2 } }),
  spec('deptId', '接收部门', 'long', {
    common: options('tree', '/api/dept/find', { width: 140 }),
  }),
  spec('haveRead', '是否已读', 'varchar', {
    common: { dict: 'yesOrNo', tags: true, search: true, defaultValue: '2', align: 'center', width: 90 },
  }),
  spec('replyContent', '回复内容', 'varchar', { common: { textarea: true, rows: 3, overflow: true } }),
  spec('replyTime', '回复时间', 'datetime', { common: { timeFmt: DATETIME, sortable: true, width: 170 } }),
];

// ----- 19 处置订单 -----
const disposalOrder: FieldSpec[] = [
  docNo('orderNo', '订单编号', 'CZ'),
  spec('stockId', '来源入库单', 'long', {
    common: options('list', '/api/general/allList/12/queryLink'),
    table: { width: 170 },
  }),
  spec('contractNo', '合同编号', 'varchar', {
    table: { width: 130 },
    form: { disabled: true, tips: '选择产废单位后自动带出' },
  }),
  // The contract the order is placed under, by id: 相关合同 opens this record.
  spec('contractId', '所属合同', 'long', {
    common: options('list', '/api/general/allList/16/queryLink'),
    table: false,
  }),
  spec('producerId', '产废单位', 'long', {
    common: companies(PRODUCERS),
    table: { search: true, width: 220, overflow: true },
    form: { required: true },
  }),
  spec('producerRegion', '产废单位地区', 'varchar', { common: { city: true }, table: { width: 200 } }),
  spec('disposerId', '处置单位', 'long', {
    common: companies(DISPOSERS),
    table: { width: 220, overflow: true },
    form: { required: true },
  }),
  // The carrier the transfer manifest names: it alone of the logistics companies picks the order for a waybill.
  spec('carrierId', '运输单位', 'long', {
    common: companies(CARRIERS),
    table: { width: 220, overflow: true },
  }),
  wasteCategory(),
  spec('quantity', '处置数量', 'decimal', {
    common: { decimals: 3, unit: '吨' },
    table: { align: 'right', sortable: true },
    form: { required: true, min: 0.001 },
  }),
  spec('price', '处置单价', 'decimal', {
    common: { decimals: 3, unit: '元/吨', money: true },
    table: { align: 'right' },
    form: { required: true, min: 0 },
  }),
  spec('amount', '订单金额', 'decimal', {
    common: { decimals: 2, unit: '元', money: true },
    table: { align: 'right', sortable: true },
    form: { show: 3 },
  }),
  spec('processMethods', '处置方式', 'varchar', {
    common: { sportData: true, sportData_type: 'list', sportData_list_multiple: true, sportData_url: '/api/getUserProcessPrimary' },
    table: { width: 160, overflow: true },
  }),
  spec('estDisposalTime', '预计处置日期', 'datetime', { common: { timeFmt: DATE }, table: { sortable: true } }),
  spec('orderStatus', '订单状态', 'varchar', {
    common: { dict: 'orderStatus' },
    table: { tags: true, search: true, align: 'center' },
    form: { defaultValue: '0' },
  }),
  spec('needPrepay', '是否预付', 'varchar', {
    common: { dict: 'yesOrNo' },
    table: { show: false },
    form: { defaultValue: '2', showRelation: { item: ['prepayPrice'], value: '1' }, requiredRelation: { item: 'prepayPrice', value: '1' } },
  }),
  spec('prepayPrice', '预付金额', 'decimal', {
    common: { decimals: 2, unit: '元', money: true },
    table: { show: false },
    form: { min: 0 },
  }),
  spec('remark', '备注', 'varchar', { common: { textarea: true, rows: 3 }, table: false }),
  createdAt(),
];

// ----- 20 物流订单 (draft) -----
const logisticsOrder: FieldSpec[] = [
  docNo('waybillNo', '运单号', 'WL'),
  spec('disposalOrderId', '处置订单', 'long', {
    common: options('list', '/api/general/allList/19/queryLink'),
    table: { width: 170 },
    form: { required: true },
  }),
  spec('vehicleId', '承运车辆', 'long', {
    common: options('list', '/api/general/allList/17/queryLink'),
    table: { width: 110 },
    form: { required: true },
  }),
  spec('fromRegion', '起运地区', 'varchar', { common: { city: true }, table: { width: 200 }, form: { required: true } }),
  spec('fromAddress', '起运地址', 'varchar', { table: { overflow: true, width: 220 }, form: { required: true } }),
  spec('toAddress', '目的地址', 'varchar', { table: { overflow: true, width: 220 }, form: { required: true } }),
  spec('weight', '运输重量', 'decimal', {
    common: { decimals: 3, unit: '吨' },
    table: { align: 'right', sortable: true },
    form: { required: true, min: 0.001, max: 49 },
  }),
  spec('freight', '运费', 'decimal', {
    common: { decimals: 2, unit: '元', money: true },
    table: { align: 'right' },
    form: { min: 0 },
  }),
  spec('loadTime', '装车时间', 'datetime', {
    common: { timeFmt: DATETIME },
    table: { sortable: true, search: true, width: 170 },
  }),
  spec('arriveTime', '到达时间', 'datetime', { common: { timeFmt: DATETIME }, table: { width: 170 } }),
  spec('orderStatus', '运单状态', 'varchar', {
    common: { dict: 'orderStatus' },
    table: { tags: true, search: true, align: 'center' },
    form: { defaultValue: '0' },
  }),
  spec('receiptPhotos', '签收回单', 'varchar', {
    common: { file: 'image', fileType: ['jpg', 'png'], fileSize: 4 },
    table: false,
  }),
  createdAt(),
];

export interface ViewSeed {
  id: number;
  componentName: string;
  title: string;
  status: 0 | 1;
  template: Record<string, unknown>;
  specs: FieldSpec[];
}

const view = (id: (typeof VIEWS)[number]['id']) => VIEWS.find((v) => v.id === id) as (typeof VIEWS)[number];

interface ViewParts {
  status?: 0 | 1;
  /** what differs from basic() */
  basic?: Conf;
  /** the lists as sent, when not the plain ones of the fields; formOption null: none (the form reads tableOption) */
  tableOption?: unknown;
  formOption?: unknown;
  /** what differs from dialog() */
  dialog?: Conf;
  formDividerOption?: unknown[];
  btnDIYOption: unknown[];
}

function viewSeed(id: (typeof VIEWS)[number]['id'], specs: FieldSpec[], parts: ViewParts): ViewSeed {
  const { status = 1, basic: basicExtra, tableOption = columns(specs), formOption = inputs(specs), dialog: dialogExtra, ...rest } = parts;
  const template = {
    basicOption: basic(id, basicExtra),
    tableOption,
    formOption: formOption ?? undefined,
    dialogOption: dialog(id, dialogExtra),
    ...rest,
  };
  const v = view(id);
  return { id, componentName: v.componentName, title: v.title, status, specs, template };
}

export const VIEW_SEEDS: ViewSeed[] = [
  viewSeed(12, stockIn, {
    basic: { sortName: 'inTime', sortType: 'desc', operationWidth: 300 },
    dialog: { initGroovy: true },
    formDividerOption: [
      { position: 'stockNo', chName: '基本信息' },
      { position: 4, chName: '入库信息' },
      { position: 'photos', chName: '附件资料' },
    ],
    btnDIYOption: inOrder([
      shownButton('confirmStock', '确认入库', 'groovy', ['status', '0'], ['admin', 'stockIn:edit'], {
        groovyAction: 'markStocked',
        confirm: true,
        multiple: false,
      }),
      button('batchConfirm', '批量确认入库', 'fun', 'groovy', {
        groovyAction: 'markStocked',
        confirm: '1',
        multiple: 'true',
        root: 'admin,stockIn:edit',
      }),
      shownButton('genOrder', '生成处置单', 'groovy', ['status', '1'], ['admin', 'stockIn:add'], {
        groovyAction: 'createDisposalOrder',
        confirm: false,
      }),
      button('stockOut', '出库记录', 'opt', 'view', { view: 13, foreignKey: 'stockInId', rootDIY: ['admin', 'stockOut:list'] }),
      button('exportSelected', '导出选中', 'fun', 'submit', {
        submitType: 'download',
        submitUrl: '/api/general/export/12/download',
        multiple: true,
        root: ['admin', 'stockIn:list'],
      }),
      shownButton('inquire', '发起询价', 'groovy', ['status', '1'], ['admin', 'disposalInquiry:add'], {
        groovyAction: 'createDisposalInquiry',
        confirm: false,
      }),
    ]),
  }),
  viewSeed(13, stockOut, {
    basic: { sortName: 'outTime', sortType: 'desc' },
    formDividerOption: [
      { position: 0, chName: '出库信息' },
      { position: 'transportMode', chName: '运输信息' },
    ],
    btnDIYOption: inOrder([
      button('voidSelected', '批量作废', 'fun', 'submit', {
        submitType: 'post',
        submitUrl: '/api/general/delete/13',
        confirm: true,
        multiple: true,
        root: ['admin', 'stockOut:del'],
      }),
      shownButton('checkOut', '核对单据', 'submit', ['status', '1'], ['admin', 'stockOut:list'], {
        submitType: 'get',
        submitUrl: '/api/general/detail?generalId=13',
        confirm: false,
      }),
    ]),
  }),
  viewSeed(14, warehouse, {
    basic: { import: false, template: false, operationWidth: '180' },
    tableOption: { items: columns(warehouse) },
    formOption: { items: inputs(warehouse) },
    dialog: { width: '800px', inline: 'true' },
    formDividerOption: [],
    btnDIYOption: inOrder([
      button('wasteCatalogue', '危废名录查询', 'fun', 'website', {
        websiteUrl: 'https://www.mee.gov.cn/',
        root: ['admin', 'warehouse:list'],
      }),
    ]),
  }),
  viewSeed(15, disposalInquiry, {
    basic: { sortName: 'deadline', sortType: 'asc' },
    formDividerOption: dividers({ companyId: '询价对象', stockId: '危废信息' }),
    btnDIYOption: inOrder([
      shownButton('toOrder', '转处置单', 'system', ['inquiryStatus', '1'], ['admin', 'disposalOrder:add'], {
        websiteUrl: '/dispose/vBuild/temp/30',
        confirm: true,
      }),
    ]),
  }),
  viewSeed(16, contract, {
    basic: { sortName: 'signDate', sortType: 'desc' },
    dialog: { width: '70%' },
    formDividerOption: dividers({ contractNo: '合同信息', signer: '签约与附件' }),
    btnDIYOption: inOrder([
      button('warehouse', '查看仓库', 'opt', 'dialog', { view: 14, linkField: 'warehouseId', root: ['admin', 'warehouse:list'] }),
      button('downloadSelected', '下载合同清单', 'fun', 'submit', {
        submitType: 'download',
        submitUrl: '/api/general/export/16/download',
        multiple: true,
        root: ['admin', 'contract:list'],
      }),
    ]),
  }),
  viewSeed(17, vehicle, {
    basic: { orderNumber: '1', operation: '1', download: 'true' },
    dialog: { labelWidth: '120', inputWidth: '260px' },
    formDividerOption: dividers({ plateNo: '车辆信息', driverName: '驾驶与押运' }),
    btnDIYOption: inOrder([
      button('monitor', '动态监控平台', 'fun', 'website', { websiteUrl: 'https://www.gghypt.net/', root: 'admin,vehicle:list' }),
    ]),
  }),
  viewSeed(18, leaveMessage, {
    basic: { import: false, template: false, sortName: 'id', sortType: 'desc' },
    formOption: null,
    dialog: { inline: false, width: '640px' },
    btnDIYOption: [],
  }),
  viewSeed(19, disposalOrder, {
    basic: { operationWidth: 260 },
    dialog: { width: '75%' },
    formDividerOption: dividers({ orderNo: '订单信息', wasteCategory: '危废与计价', needPrepay: '付款' }),
    btnDIYOption: inOrder([
      button('contract', '相关合同', 'opt', 'dialog', { view: 16, linkField: 'contractId', root: ['admin', 'contract:list'] }),
      shownButton('logisticsOrder', '物流运单', 'view', ['orderStatus', '1'], ['admin', 'logisticsOrder:list'], {
        view: 20,
        foreignKey: 'disposalOrderId',
      }),
    ]),
  }),
  viewSeed(20, logisticsOrder, {
    status: 0,
    basic: { sortName: 'loadTime', sortType: 'desc' },
    formDividerOption: dividers({ fromRegion: '线路' }),
    btnDIYOption: inOrder(
      [
        button('detail', '物流详情', 'opt', 'system', {
          websiteUrl: '/logistics/vBuild/temp/25',
          rootDIY: 'admin,logisticsOrder:list',
        }),
        button('disposalOrder', '处置订单', 'opt', 'system', {
          websiteUrl: '/dispose/vBuild/temp/30',
          linkField: 'disposalOrderId',
          rootDIY: 'admin,disposalOrder:list',
        }),
      ],
      0,
    ),
  }),
];

/** Created but not designed yet: disTemplate null (reported as skipped by `wastegen pull`). */
export const UNDESIGNED_VIEW = { id: 21, componentName: 'pendingView', title: '待设计视图' };

// ----- SQL data views feeding the big screen -----

/** The last six months (this one included) as rows m.month 'YYYY-MM', selected first as 月份. */
const SIX_MONTHS = `with m as (
  select to_char(date_trunc('month', current_date) - make_interval(months => g), 'YYYY-MM') as month
  from generate_series(0, 5) g
)
select m.month as "月份",`;

export const DATA_VIEWS: { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: '近六个月危废出入库量',
    sql: `${SIX_MONTHS}
  coalesce((select round(sum(i.quantity), 3) from lc_view_12 i where to_char(i."inTime", 'YYYY-MM') = m.month), 0) as "入库量",
  coalesce((select round(sum(o.quantity), 3) from lc_view_13 o where to_char(o."outTime", 'YYYY-MM') = m.month), 0) as "出库量"
from m
order by m.month`,
  },
  {
    id: 2,
    name: '入库危废类别占比',
    sql: `select coalesce(d.label, s."wasteCategory") as name, round(sum(s.quantity), 3) as value
from lc_view_12 s
left join sys_dict_detail d on d.value = s."wasteCategory" and d.dict_id = (select id from sys_dict where name = 'wasteCategory')
group by 1
order by 2 desc`,
  },
  {
    id: 3,
    name: '最新入库记录',
    sql: `select "stockNo" as "入库单号", "wasteName" as "危废名称", quantity as "数量（吨）", to_char("inTime", 'MM-DD HH24:MI') as "入库时间"
from lc_view_12
order by "inTime" desc
limit 20`,
  },
  {
    id: 4,
    name: '城市处置交易额',
    // Municipalities read 上海市/市辖区/…: their city is the first level.
    sql: `select case when split_part("producerRegionFmt", '/', 2) = '市辖区' then split_part("producerRegionFmt", '/', 1)
    else split_part("producerRegionFmt", '/', 2) end as city,
  round(sum(amount), 2) as "transactionAmount",
  round(sum(case when "orderStatus" = '2' then amount else 0 end), 2) as "paidAmount"
from lc_view_19
where "producerRegionFmt" is not null
group by 1
order by 2 desc`,
  },
  {
    id: 5,
    name: '处置订单危废类别分布',
    sql: `select "wasteCategory" as name, round(sum(quantity), 3) as value
from lc_view_19
group by 1
order by 1`,
  },
  {
    id: 6,
    name: '车辆状态统计',
    sql: `select coalesce(d.label, v."vehicleStatus") as name, count(*) as value
from lc_view_17 v
left join sys_dict_detail d on d.value = v."vehicleStatus" and d.dict_id = (select id from sys_dict where name = 'vehicleStatus')
group by 1
order by 2 desc`,
  },
  {
    id: 7,
    name: '近六个月处置量与订单数',
    sql: `${SIX_MONTHS}
  coalesce((select round(sum(o.quantity), 3) from lc_view_19 o where to_char(o.create_time, 'YYYY-MM') = m.month), 0) as "处置量",
  (select count(*) from lc_view_19 o where to_char(o.create_time, 'YYYY-MM') = m.month) as "订单数"
from m
order by m.month`,
  },
  {
    id: 8,
    name: '最新处置订单',
    sql: `select o."orderNo" as "订单编号", c.name as "产废单位", o.quantity as "数量（吨）", to_char(o.create_time, 'MM-DD HH24:MI') as "下单时间"
from lc_view_19 o
left join company c on c.id = o."producerId"
order by o.create_time desc, o.id desc
limit 20`,
  },
  {
    id: 9,
    name: '平台概况',
    sql: `select
  (select count(*) from company) as "入驻企业",
  (select coalesce(round(sum(quantity), 3), 0) from lc_view_12) as "累计入库（吨）",
  (select count(*) from lc_view_19) as "处置订单",
  (select coalesce(round(sum(amount), 2), 0) from lc_view_19) as "交易额（元）"`,
  },
];

// ----- screens -----

const THEME = [
  { start: '#2F6EFF', end: '#00C6FF' },
  { start: '#00D4A0', end: '#7CFFB2' },
  { start: '#FFB02E', end: '#FFE08A' },
  { start: '#FF5B5B', end: '#FF9A9A' },
  { start: '#9B6BFF', end: '#D0B5FF' },
];

const canvasConfigure = (title: string) => ({
  basic: {
    width: 1920,
    height: 1080,
    bgColor: '#061537',
    bgImg: '',
    defaultCol: 24,
    defaultW: 6,
    defaultH: 18,
    margin: 20,
    autoUpdate: true,
    timer: 60,
  },
  header: { height: 80, marginTop: 0, bgImg: '', bgPosition: 'center', bgSize: 'cover' },
  mainTitle: {
    content: title,
    size: 36,
    color: '#FFFFFF',
    bold: true,
    shadow: '0 0 12px rgba(47,110,255,0.8)',
    bg: '',
    width: 900,
    height: 80,
    marginTop: 0,
  },
  subTitle: { time: true, content: '', marginTop: 12, size: 16, color: '#9FC3FF', bold: false },
  themeColor: THEME,
});

const container = (title: string, scroll = false) => ({
  style: {
    padding: 12,
    bgColor: 'rgba(10,38,92,0.55)',
    bgImg: '',
    bgPosition: 'center',
    bgSize: 'contain',
    boxShadow: 'inset 0 0 18px rgba(47,110,255,0.45)',
    borderSize: 1,
    borderStyle: 'solid',
    borderColor: '#1E4FB8',
    borderRadius: 4,
  },
  header: {
    showTitle: true,
    content: title,
    height: 50,
    margin: 0,
    padding: '0 16px',
    bg: '',
    borderBottom: '1px solid #1E4FB8',
    fontSize: 16,
    color: '#FFFFFF',
    textAlign: 'center',
  },
  super: {
    flexDirection: 'column',
    absolute: { enabled: false, top: 0, left: 0 },
    scroll: { enabled: scroll, direction: 'vertical', speed: 3000 },
    animation: '',
    curtain: { enabled: false, curtainColor: 'rgba(0,0,0,0.4)' },
  },
});

const common = { colorModel: 'gradient', privateColorFirst: false, themeColor: [] as unknown[] };

const layout = [
  {
    i: 'trend',
    x: 0,
    y: 0,
    w: 12,
    h: 18,
    container: container('近六个月处置量与订单数'),
    chart: [
      {
        fileName: 'lineBar',
        chartIndex: 0,
        flexSize: 1,
        configure: {
          common,
          private: {
            dataViewId: 7,
            xAxisData: '月份',
            yAxisData_bar: '处置量',
            yAxisData_line: '订单数',
            xAxis: { name: '', axisLabel: true, axisLine: true, splitLine: false },
            yAxis: { name: '', min: 0, axisLabel: true, axisLine: false, splitLine: true },
            line: { symbol: 'circle', symbolSize: 6, step: false, area: true, smooth: true },
            bar: { showBackground: false, radius: 4, barWidth: 18 },
            label: { show: false },
            legend: { show: true, size: 12, position: 'top', legendData: '处置量,订单数' },
            grid: { top: 40, right: 20, bottom: 30, left: 50 },
            title: { show: false, text: '', color: '#FFFFFF', size: 16, position: 'left' },
          },
        },
      },
    ],
  },
  {
    i: 'category',
    x: 12,
    y: 0,
    w: 6,
    h: 18,
    container: container('入库危废类别占比'),
    chart: [
      {
        fileName: 'pie',
        chartIndex: 0,
        flexSize: 1,
        configure: {
          common,
          private: {
            dataViewId: 2,
            seriesDataName: 'name',
            seriesDataValue: 'value',
            roseType: 'radius',
            radiusInside: 30,
            radiusOutSide: 70,
            label: { show: true, unit: '吨', fontSize: 12 },
            legend: { show: false, size: 12, position: 'bottom', legendData: '' },
            title: { show: false, text: '', color: '#FFFFFF', size: 16, position: 'center' },
          },
        },
      },
    ],
  },
  {
    i: 'site',
    x: 18,
    y: 0,
    w: 6,
    h: 18,
    container: container('平台概况'),
    chart: [{ fileName: 'siteInfo', chartIndex: 0, flexSize: 1, configure: { common, private: { dataViewId: 9 } } }],
  },
  {
    i: 'latest',
    x: 0,
    y: 18,
    w: 8,
    h: 18,
    container: container('最新处置订单', true),
    chart: [{ fileName: 'scrollList', chartIndex: 0, flexSize: 1, configure: { common, private: { dataViewId: 8, interval: 3000 } } }],
  },
  {
    i: 'cities',
    x: 8,
    y: 18,
    w: 8,
    h: 18,
    container: container('城市处置交易额（元）'),
    chart: [{ fileName: 'cityTransaction', chartIndex: 0, flexSize: 1, configure: { common, private: { dataViewId: 4, interval: 3000 } } }],
  },
  {
    i: 'radar',
    x: 16,
    y: 18,
    w: 8,
    h: 18,
    container: container('处置订单危废类别分布'),
    chart: [
      {
        fileName: 'radar',
        chartIndex: 0,
        flexSize: 1,
        configure: { common, private: { dataViewId: 5, seriesDataName: 'name', seriesDataValue: 'value', legend: { show: false } } },
      },
    ],
  },
];

export interface ScreenSeed {
  id: number;
  title: string;
  type: 1 | 2 | 3 | 4;
  status: 0 | 1;
  /** null: created but not designed */
  template: Record<string, unknown> | null;
  inMenu: boolean;
}

const screen = (id: (typeof SCREENS)[number]['id']) => SCREENS.find((s) => s.id === id) as (typeof SCREENS)[number];

export const SCREEN_SEEDS: ScreenSeed[] = [
  { id: 97, title: screen(97).title, type: 1, status: 1, template: { baseView: [18] }, inMenu: true },
  { id: 30, title: screen(30).title, type: 1, status: 1, template: { baseView: [19] }, inMenu: true },
  { id: 25, title: screen(25).title, type: 3, status: 1, template: { formView: 20 }, inMenu: true },
  { id: 40, title: screen(40).title, type: 4, status: 1, template: { baseView: [12, 13, 14] }, inMenu: true },
  {
    id: 50,
    title: screen(50).title,
    type: 2,
    status: 1,
    template: { canvasConfigure: canvasConfigure('江苏省危险废物智慧监管运营大屏'), layout },
    inMenu: true,
  },
  {
    id: 51,
    title: '园区危废监控大屏（未启用）',
    type: 2,
    status: 0,
    template: { canvasConfigure: canvasConfigure('化工园区危废监控'), layout: layout.slice(0, 2) },
    inMenu: false,
  },
  { id: 52, title: '新建大屏（待设计）', type: 2, status: 0, template: null, inMenu: false },
];
