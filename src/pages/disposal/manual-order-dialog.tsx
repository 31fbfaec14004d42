import {
  Alert,
  AutoComplete,
  Cascader,
  Col,
  type ColProps,
  DatePicker,
  Divider,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  type SelectProps,
  Spin,
} from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { disposalOrders } from '../../contract/disposal-order';
import { notify } from '../../notify/notifier';
import { api, RequestError, useLookup } from '../../request';
import { formatMoney } from '../../shared/format';
import {
  AMOUNT_DECIMALS,
  MANUAL_ORDER_MESSAGES as M,
  MOBILE_RE,
  manualOrderAmount,
  PREPAY_NO,
  PREPAY_YES,
  QUANTITY_DECIMALS,
} from '../../shared/manual-order';
import { revealField, validateOrReveal } from '../validate-form';
import {
  COMPANY_SEARCH_DEBOUNCE_MS,
  type Contract,
  lookups,
  type Process,
  type RegionNode,
  type UnloadingPoint,
  useDebounced,
  type WasteCategory,
} from './lookups';
import { EMPTY_ORDER, type ManualOrderForm, manualOrderPayload } from './manual-order-payload';

/**
 * 新增手工处置单: a disposal order typed in by hand. Party A is a producing company found by a
 * search that waits 1000 ms after the last keystroke; changing it clears the contract and loads the
 * company's effective contracts, and a contract copies its party A details. An unloading point
 * copies party B's. A process clears the sub-process and loads its sub-processes; a sub-process sets
 * its parent. amount = price × quantity to 5 decimals, recomputed on every change, never typed.
 * 取消 (or ×, Esc) clears the form and its messages, as a saved order does; a refused submit keeps
 * everything typed. Every failed submit shows where the user looks: the first invalid field is
 * scrolled into view and focused, and a server's refusal is its 5 s error toast, with each field it
 * names marked (the dialog is taller than the screen, so a message at its top would go unseen).
 */

/** A form save says 操作成功, as every form of the app does. */
const SAVED = '操作成功';
const NO_ITEMS: never[] = [];
const PREPAY_CHOICES = [
  { value: PREPAY_YES, label: '是' },
  { value: PREPAY_NO, label: '否' },
];
const half = { xs: 24, md: 12, xl: 8 } as const;
const full = { span: 24 } as const;

const phoneRule = { pattern: MOBILE_RE, message: M.phone };
const requiredSelect = (message: string) => ({ required: true, message });
const requiredText = (message: string) => ({ required: true, whitespace: true, message });

/** A process picker: each process as its name and code; Form.Item passes the value and its change on. */
function ProcessSelect({ lookup, ...props }: { lookup: { data: Process[]; loading: boolean } } & SelectProps<number>) {
  return (
    <Select
      {...props}
      loading={lookup.loading}
      options={lookup.data.map((p) => ({ value: p.id, label: `${p.name}（${p.code}）` }))}
      allowClear
    />
  );
}

/**
 * A party's contact: its contact person (and the user behind it), phone, region and address, in the
 * fields party{A|B}…; 甲方 is party A, 乙方 party B.
 */
function PartyContact({ party, regions, addressCol }: { party: 'A' | 'B'; regions: RegionNode[]; addressCol: ColProps }) {
  const side = party === 'A' ? '甲方' : '乙方';
  const field = (name: 'Name' | 'UserId' | 'Phone' | 'Region' | 'Address') => `party${party}${name}` as const;
  return (
    <>
      <Col {...half}>
        <Form.Item name={field('Name')} label={`${side}联系人`}>
          <Input maxLength={100} placeholder={`请输入${side}联系人`} />
        </Form.Item>
        <Form.Item name={field('UserId')} hidden>
          <Input />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name={field('Phone')} label={`${side}联系电话`} rules={[phoneRule]}>
          <Input maxLength={11} placeholder="请输入手机号" />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name={field('Region')} label={`${side}所在地区`}>
          <Cascader options={regions} placeholder="请选择地区" changeOnSelect showSearch />
        </Form.Item>
      </Col>
      <Col {...addressCol}>
        <Form.Item name={field('Address')} label={`${side}详细地址`}>
          <Input maxLength={512} placeholder="请输入详细地址" />
        </Form.Item>
      </Col>
    </>
  );
}

interface Refusal {
  message?: string;
  errors?: { field: string; message: string }[];
}

export function ManualOrderDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const [form] = Form.useForm<ManualOrderForm>();
  const [saving, setSaving] = useState(false);
  const copiedRegionFmt = useRef<{ partyA?: string; partyB?: string }>({});

  const partyACompany = Form.useWatch('partyACompany', form);
  const processId = Form.useWatch('processId', form);
  const needPrepay = Form.useWatch('needPrepay', form);

  // Every opening starts with 是否预付 at 否: a prepayment is asked for each order, never carried over.
  useEffect(() => {
    if (open) form.setFieldsValue({ needPrepay: PREPAY_NO, prepayPrice: undefined });
  }, [open, form]);

  // Look-ups load once the dialog has been opened, and stay for the next opening.
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const when = (key: string) => (opened ? key : null);
  const types = useLookup(when('disposalTypes'), (signal) => lookups.dict('disposalTypes', signal), NO_ITEMS);
  const units = useLookup(when('weightUnit'), (signal) => lookups.dict('weightUnit', signal), NO_ITEMS);
  const packages = useLookup(when('package_type'), (signal) => lookups.dict('package_type', signal), NO_ITEMS);
  const regions = useLookup(when('regions'), lookups.regions, NO_ITEMS);
  const points = useLookup<UnloadingPoint[]>(when('points'), lookups.unloadingPoints, NO_ITEMS);
  const processes = useLookup<Process[]>(when('processes'), lookups.processes, NO_ITEMS);
  // Without a process every sub-process is offered, and picking one sets its parent.
  const primaryIds = processes.data.map((p) => p.id);
  const subProcesses = useLookup<Process[]>(
    processId ? `sub:${processId}` : primaryIds.length ? `sub:all:${primaryIds.join(',')}` : null,
    async (signal) =>
      processId
        ? lookups.subProcesses(Number(processId), signal)
        : (await Promise.all(primaryIds.map((id) => lookups.subProcesses(id, signal)))).flat(),
    NO_ITEMS,
  );
  const contracts = useLookup<Contract[]>(
    partyACompany ? `contracts:${partyACompany}` : null,
    (signal) => lookups.contracts(String(partyACompany), signal),
    NO_ITEMS,
  );
  const categories = useLookup<WasteCategory[]>(
    partyACompany ? `categories:${partyACompany}` : null,
    (signal) => lookups.wasteCategories(String(partyACompany), signal),
    NO_ITEMS,
  );

  const [companyText, setCompanyText] = useState('');
  const companySearch = useDebounced(companyText, COMPANY_SEARCH_DEBOUNCE_MS);
  const searching = companyText !== companySearch;
  const companies = useLookup(opened ? `companies:${companySearch}` : null, (signal) => lookups.companies(companySearch, signal), NO_ITEMS);
  // The picked company stays an option while a later search does not list it.
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const companyOptions = useMemo(() => {
    const options = companies.data.map((c) => ({ value: String(c.id), label: c.name }));
    if (picked && !options.some((o) => o.value === picked.value)) options.unshift(picked);
    return options;
  }, [companies.data, picked]);

  const onCompany = (value: string | undefined, option?: { label?: unknown } | { label?: unknown }[]) => {
    const label = option && !Array.isArray(option) && typeof option.label === 'string' ? option.label : undefined;
    setPicked(value && label ? { value, label } : null);
    copiedRegionFmt.current.partyA = undefined;
    form.setFieldsValue({
      partyACompanyName: label,
      contractId: undefined,
      contractNo: undefined,
    });
  };

  const onContract = (id: number | undefined) => {
    const c = contracts.data.find((x) => x.id === id);
    if (!c) {
      form.setFieldsValue({ contractNo: undefined });
      return;
    }
    copiedRegionFmt.current.partyA = c.partyARegionFmt ?? undefined;
    form.setFieldsValue({
      contractNo: c.contractNo,
      partyAName: c.partyAName ?? undefined,
      partyAPhone: c.partyAPhone ?? undefined,
      partyARegion: c.partyARegion ? c.partyARegion.split(',') : undefined,
      partyAAddress: c.partyAAddress ?? undefined,
      partyAUserId: c.partyAUserId ?? undefined,
    });
    void form.validateFields(['partyAPhone']).catch(() => undefined);
  };

  const onPoint = (id: number | undefined) => {
    const w = points.data.find((x) => x.id === id);
    if (!w) return;
    copiedRegionFmt.current.partyB = w.regionFmt ?? undefined;
    form.setFieldsValue({
      partyBRegion: w.region ? w.region.split(',') : undefined,
      partyBAddress: w.address ?? undefined,
      partyBName: w.linkmanName ?? undefined,
      partyBPhone: w.phone ?? undefined,
      partyBUserId: w.linkmanId ?? undefined,
    });
    void form.validateFields(['partyBPhone']).catch(() => undefined);
  };

  const onCategory = (code: string) => {
    const c = categories.data.find((x) => x.code === code);
    if (c) form.setFieldsValue({ wasteCategoryName: c.name });
  };

  const onValuesChange = (changed: Partial<ManualOrderForm>, all: ManualOrderForm) => {
    if ('price' in changed || 'quantity' in changed) form.setFieldsValue({ amount: manualOrderAmount(all.price, all.quantity) });
    if ('processId' in changed) form.setFieldsValue({ processSubId: undefined });
    if ('processSubId' in changed && changed.processSubId !== undefined) {
      const sub = subProcesses.data.find((p) => p.id === changed.processSubId);
      if (sub?.pid && sub.pid !== all.processId) form.setFieldsValue({ processId: sub.pid });
    }
    if ('needPrepay' in changed && changed.needPrepay !== PREPAY_YES) form.setFieldsValue({ prepayPrice: undefined });
  };

  /** Back to an empty order: the values, their messages, and what the lookups remembered of them. */
  const clear = useCallback(() => {
    form.resetFields();
    copiedRegionFmt.current = {};
    setPicked(null);
    setCompanyText('');
  }, [form]);

  const close = useCallback(() => {
    if (saving) return;
    clear();
    onClose();
  }, [saving, clear, onClose]);

  const submit = async () => {
    const values = await validateOrReveal(form);
    if (!values) return;
    const body = manualOrderPayload(values, {
      regions: regions.data,
      processes: processes.data,
      subProcesses: subProcesses.data,
      copiedRegionFmt: copiedRegionFmt.current,
    });
    setSaving(true);
    try {
      // Not silent: a refusal is the request layer's error toast, as for every form of the app.
      await api(disposalOrders.calls.add, { body });
      // A form save says 操作成功; the new order shows at the top of the list it reloads.
      notify.success(SAVED);
      clear();
      onCreated();
      onClose();
    } catch (e) {
      const r = e instanceof RequestError ? (e.body as Refusal | undefined) : undefined;
      const known = new Set(Object.keys(EMPTY_ORDER_FIELDS));
      const fieldErrors = (r?.errors ?? []).filter((x) => known.has(x.field));
      if (fieldErrors.length) {
        form.setFields(fieldErrors.map((x) => ({ name: x.field as keyof ManualOrderForm, errors: [x.message] })));
        // The fields in the order they were drawn: the first one marked is the highest in the dialog.
        const first = form.getFieldsError().find((f) => f.errors.length)?.name;
        if (first) revealField(form, first);
      }
    } finally {
      setSaving(false);
    }
  };

  const lookupErrors = [types, units, packages, regions, points, processes, contracts, companies, categories]
    .map((l) => l.error)
    .filter((x): x is string => !!x);

  return (
    <Modal
      open={open}
      title="新增手工处置单"
      width={1100}
      okText="提交"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={close}
      maskClosable={false}
      forceRender
      className="manual-order-dialog"
    >
      {lookupErrors.length > 0 && (
        <Alert type="warning" showIcon title={`部分选项加载失败：${[...new Set(lookupErrors)].join('；')}`} style={{ marginBottom: 12 }} />
      )}
      <Form<ManualOrderForm>
        form={form}
        layout="vertical"
        initialValues={EMPTY_ORDER}
        onValuesChange={onValuesChange}
        scrollToFirstError
        name="manualOrder"
      >
        <Divider titlePlacement="start">签约信息</Divider>
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item name="types" label="处置类型" rules={[requiredSelect(M.types)]}>
              <Select placeholder="请选择处置类型" options={types.data} loading={types.loading} allowClear />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="partyACompany" label="签约企业" rules={[requiredSelect(M.partyACompany)]}>
              <Select
                placeholder="输入企业名称搜索"
                options={companyOptions}
                showSearch={{ filterOption: false, onSearch: setCompanyText }}
                onChange={onCompany}
                loading={searching || companies.loading}
                notFoundContent={searching || companies.loading ? <Spin size="small" /> : '无匹配企业'}
                allowClear
                onClear={() => setCompanyText('')}
              />
            </Form.Item>
            <Form.Item name="partyACompanyName" hidden>
              <Input />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="contractId"
              label="合同"
              extra={partyACompany && !contracts.loading && !contracts.data.length ? '该企业暂无有效合同' : undefined}
            >
              <Select
                placeholder={partyACompany ? '请选择合同' : '请先选择签约企业'}
                disabled={!partyACompany}
                loading={contracts.loading}
                options={contracts.data.map((c) => ({ value: c.id, label: `${c.contractNo}（${c.beginTime} 至 ${c.endTime}）` }))}
                onChange={onContract}
                allowClear
              />
            </Form.Item>
            <Form.Item name="contractNo" hidden>
              <Input />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start">甲方（产废企业）</Divider>
        <Row gutter={16}>
          <PartyContact party="A" regions={regions.data} addressCol={full} />
        </Row>

        <Divider titlePlacement="start">乙方（处置企业）</Divider>
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item name="partyBWarehouseId" label="卸货点">
              <Select
                placeholder="请选择卸货点"
                loading={points.loading}
                options={points.data.map((w) => ({ value: w.id, label: w.name }))}
                onChange={onPoint}
                allowClear
              />
            </Form.Item>
          </Col>
          <PartyContact party="B" regions={regions.data} addressCol={{ xs: 24, xl: 16 }} />
        </Row>

        <Divider titlePlacement="start">危废与计价</Divider>
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item name="wasteCategoryCode" label="危废代码" rules={[requiredText(M.wasteCategoryCode)]}>
              <AutoComplete
                placeholder="请输入危废代码"
                options={categories.data.map((c) => ({ value: c.code, label: `${c.code} ${c.name}` }))}
                showSearch={{
                  filterOption: (input, option) =>
                    String(option?.label ?? '')
                      .toLowerCase()
                      .includes(input.trim().toLowerCase()),
                }}
                onSelect={onCategory}
                maxLength={20}
                allowClear
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="wasteCategoryName" label="危废名称" rules={[requiredText(M.wasteCategoryName)]}>
              <Input maxLength={255} placeholder="请输入危废名称" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="packageType" label="包装方式">
              <Select placeholder="请选择包装方式" options={packages.data} loading={packages.loading} allowClear />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="quantity"
              label="数量"
              rules={[
                requiredSelect(M.quantity),
                {
                  validator: async (_, v) =>
                    v === null || v === undefined || v > 0 ? undefined : Promise.reject(new Error(M.quantityPositive)),
                },
              ]}
            >
              <InputNumber precision={QUANTITY_DECIMALS} min={0} style={{ width: '100%' }} placeholder="请输入数量" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="unit" label="计量单位" rules={[requiredSelect(M.unit)]}>
              <Select
                placeholder="请选择计量单位"
                options={units.data.map((u) => ({ value: u.label, label: u.label }))}
                loading={units.loading}
                allowClear
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="price" label="单价（元）" rules={[requiredSelect(M.price)]}>
              <InputNumber precision={QUANTITY_DECIMALS} min={0} style={{ width: '100%' }} placeholder="请输入单价" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="amount" label="金额（元）" tooltip="单价 × 数量，保留5位小数" extra={<AmountText form={form} />}>
              <InputNumber precision={AMOUNT_DECIMALS} readOnly style={{ width: '100%' }} placeholder="自动计算" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="processId" label="处置方式">
              <ProcessSelect placeholder="请选择处置方式" lookup={processes} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="processSubId" label="处置子方式">
              <ProcessSelect placeholder="请选择处置子方式" lookup={subProcesses} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="estDisposalTime" label="预计处置时间">
              <DatePicker format="YYYY-MM-DD" style={{ width: '100%' }} placeholder="请选择日期" />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start">付款</Divider>
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item name="needPrepay" label="是否预付">
              <Radio.Group options={PREPAY_CHOICES} />
            </Form.Item>
          </Col>
          {needPrepay === PREPAY_YES && (
            <Col {...half}>
              <Form.Item name="prepayPrice" label="预付金额（元）" rules={[requiredSelect(M.prepayPrice)]}>
                <InputNumber precision={QUANTITY_DECIMALS} min={0} style={{ width: '100%' }} placeholder="请输入预付金额" />
              </Form.Item>
            </Col>
          )}
          <Col {...half}>
            <Form.Item name="payer" label="付款方">
              <Input maxLength={255} placeholder="请输入付款方" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="payee" label="收款方">
              <Input maxLength={255} placeholder="请输入收款方" />
            </Form.Item>
          </Col>
          <Col {...full}>
            <Form.Item name="remark" label="备注">
              <Input.TextArea maxLength={1024} rows={2} placeholder="请输入备注" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}

/** Every field of the form, so a server's message for one of them lands on it. */
const EMPTY_ORDER_FIELDS: Record<keyof ManualOrderForm, true> = {
  types: true,
  needPrepay: true,
  prepayPrice: true,
  payer: true,
  payee: true,
  partyACompany: true,
  partyACompanyName: true,
  contractId: true,
  contractNo: true,
  partyAName: true,
  partyAPhone: true,
  partyARegion: true,
  partyAAddress: true,
  partyAUserId: true,
  partyBWarehouseId: true,
  partyBRegion: true,
  partyBAddress: true,
  partyBName: true,
  partyBPhone: true,
  partyBUserId: true,
  wasteCategoryCode: true,
  wasteCategoryName: true,
  quantity: true,
  unit: true,
  price: true,
  amount: true,
  processId: true,
  processSubId: true,
  packageType: true,
  estDisposalTime: true,
  remark: true,
};

/** The amount with thousands separators, at the 5 decimals it is computed to. */
function AmountText({ form }: { form: ReturnType<typeof Form.useForm<ManualOrderForm>>[0] }) {
  const amount = Form.useWatch('amount', form);
  return amount === null || amount === undefined ? null : <span data-amount-text>{formatMoney(amount, AMOUNT_DECIMALS)} 元</span>;
}
