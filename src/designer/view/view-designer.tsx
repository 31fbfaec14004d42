import { Alert, Badge, Button, Card, Col, Result, Row, Space, Spin, Switch, Tabs, Tag, Typography } from 'antd';
import { memo, type ReactNode, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { isWarning, type ListPageModel, type Problem } from '../../model/index';
import { notify } from '../../notify/notifier';
import { RequestError } from '../../request/index';
import { ConflictDialog } from '../conflict-dialog';
import { type CloseGuard, useDesignDocument, useEachLoad } from '../document';
import { DesignPreview } from './design-preview';
import {
  analyse,
  type DesignDoc,
  diagnose,
  errorsOf,
  formFieldNames,
  type Json,
  type ListKey,
  type MenuInfo,
  placeOf,
  publishConfirm,
  readJsonObject,
  type Template,
  templateOf,
  templateText,
  withList,
} from './designer-model';
import { BasicPanel, ButtonPanel, DialogPanel, DividerPanel, JsonPanel } from './designer-panels';
import { FieldTable, type PickLists } from './field-table';
import { problemLine } from './problem-ui';
import { designApi, type ViewDefinition } from './view-api';
import './view-designer.css';

const TAB_LABELS: Record<string, string> = {
  basic: '基本设置',
  table: '表格列',
  form: '表单字段',
  dividers: '分隔线',
  buttons: '自定义按钮',
  dialog: '弹窗设置',
  json: 'JSON',
};

/** What is saved: compared with the last save to know whether there are unsaved edits. */
const snapshot = (doc: DesignDoc) => JSON.stringify([doc.name, doc.menu, templateText(doc.template)]);

/**
 * The preview follows the edits at a lower priority than typing. The deferral sits here, below the
 * editor, so the deferred pass redraws the preview alone and not the editor a second time.
 */
const PreviewPane = memo(function PreviewPane(props: { page: ListPageModel | undefined; problems: readonly Problem[]; version: number }) {
  const deferred = useDeferredValue(props);
  return <DesignPreview page={deferred.page} problems={deferred.problems} version={deferred.version} />;
});

/** Unsaved edits kept in this browser until saved or discarded, so leaving the page loses nothing. */
const draftKey = (id: number) => `wastegen:view-design:${id}`;
const readDraft = (id: number) => (v: unknown) => {
  const d = v as DesignDoc | null;
  return d && typeof d === 'object' && d.id === id ? { ...d, template: templateOf(d.template) } : undefined;
};

function docOf(row: ViewDefinition): DesignDoc {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    menu: readJsonObject(row.disMenu) as MenuInfo,
    template: templateOf(row.disTemplate),
  };
}

/**
 * The view designer: the template edited as options, field tables, buttons or raw JSON, checked by the
 * page model on every edit (problems at their controls, saving refused while errors remain), and drawn
 * live by the runtime renderer beside it.
 */
export function ViewDesigner({
  viewId,
  canPublish,
  onClose,
  onPublished,
  closeGuard,
}: {
  viewId: number;
  canPublish: boolean;
  onClose: () => void;
  onPublished: () => void;
  /** The tag bar's guard: closing the page's tab with unsaved edits asks first. */
  closeGuard?: CloseGuard;
}) {
  const [doc, setDoc] = useState<DesignDoc | undefined>();
  const [tab, setTab] = useState('table');
  const [draft, setDraft] = useState<{ text: string; error: string } | undefined>();
  const [dicts, setDicts] = useState<{ names: string[]; loaded: boolean }>({ names: [], loaded: false });
  const [views, setViews] = useState<{ id: number; name: string }[]>([]);
  const [publishing, setPublishing] = useState(false);
  const [version, setVersion] = useState(0);
  const [wide, setWide] = useState(false);

  const confirmClose = useCallback(
    () =>
      notify.confirm({
        title: '设计尚未保存',
        content: '关闭后可在下次打开设计时恢复未保存的修改。确定关闭吗？',
        okText: '关闭',
        cancelText: '取消',
      }),
    [],
  );
  const lifecycle = useDesignDocument<DesignDoc>({
    id: viewId,
    load: async () => {
      const row = await designApi.detail(viewId);
      return { doc: docOf(row), version: row.version };
    },
    snapshot,
    current: doc,
    draftKey: draftKey(viewId),
    readDraft: useMemo(() => readDraft(viewId), [viewId]),
    draftDelay: 500,
    reportError: (e) => {
      // The request layer has answered a lost session or a refusal itself.
      if (!(e instanceof RequestError && (e.status === 401 || e.status === 403))) notify.error(e instanceof Error ? e.message : String(e));
    },
    closeGuard,
    confirmClose,
  });
  const { load, saved: savedDoc, found: restorable } = lifecycle;
  // Each load starts the edits afresh from the saved definition.
  useEachLoad(lifecycle, setDoc);

  useEffect(() => {
    let live = true;
    designApi
      .dictNames()
      .then((list) => live && setDicts({ names: list, loaded: true }))
      .catch(() => undefined);
    designApi
      .viewNames()
      .then((list) => live && setViews(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const edit = useCallback((f: (d: DesignDoc) => DesignDoc) => {
    setDoc((d) => (d ? f(d) : d));
    setVersion((v) => v + 1);
  }, []);
  const setList = useMemo(() => {
    const make = (key: ListKey) => (next: Json[]) => edit((d) => ({ ...d, template: withList(d.template, key, next) }));
    return {
      tableOption: make('tableOption'),
      formOption: make('formOption'),
      formDividerOption: make('formDividerOption'),
      btnDIYOption: make('btnDIYOption'),
    };
  }, [edit]);

  const analysis = useMemo(() => (doc ? analyse(doc) : { problems: [] as Problem[], page: undefined }), [doc]);
  const problems = analysis.problems;
  const docHead = doc && JSON.stringify([doc.id, doc.name, doc.status, doc.menu]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the view's id, name and menu; the template is the argument
  const diagnoseRaw = useCallback((v: Json) => (doc ? diagnose({ ...doc, template: v as Template }) : []), [docHead]);
  const errors = useMemo(() => errorsOf(problems), [problems]);
  const dirty = lifecycle.dirty;
  const blocked = errors.length > 0 || !!draft;

  const names = doc ? formFieldNames(doc.template) : [];
  const namesKey = names.join('\u0000');
  const tableNames = doc ? doc.template.tableOption.map((f) => String(f.name ?? '')).filter(Boolean) : [];
  const tableNamesKey = tableNames.join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the names' text, so typing a label keeps the same pick lists
  const formPicks = useMemo<PickLists>(() => ({ dicts: dicts.names, dictsLoaded: dicts.loaded, fieldNames: names }), [dicts, namesKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  const tablePicks = useMemo<PickLists>(
    () => ({ dicts: dicts.names, dictsLoaded: dicts.loaded, fieldNames: tableNames }),
    [dicts, tableNamesKey],
  );

  /** Saves the template and menu, then the name when it changed, each from the version the last answered. */
  const save = async (overwrite = false): Promise<boolean> => {
    if (!doc) return false;
    if (blocked) {
      notify.error(draft ? '模板 JSON 有语法错误，不能保存' : `定义有 ${errors.length} 个错误，不能保存`);
      return false;
    }
    const sent = doc;
    const renamed = savedDoc !== undefined && savedDoc.name !== sent.name;
    let message = '';
    const result = await lifecycle.save(
      sent,
      async (from) => {
        const res = await designApi.design({
          id: sent.id,
          disTemplate: templateText(sent.template),
          disMenu: JSON.stringify(sent.menu),
          version: from,
        });
        message = res.message;
        return renamed ? (await designApi.rename({ id: sent.id, name: sent.name.trim(), version: res.version })).version : res.version;
      },
      overwrite,
    );
    if (result === 'saved') notify.success(message || '保存成功');
    return result === 'saved';
  };

  const publish = async () => {
    if (!doc || !(await notify.confirm(publishConfirm(doc.name)))) return;
    if (dirty && !(await save())) return;
    setPublishing(true);
    try {
      const res = await designApi.publish(doc.id);
      notify.success(res.message || '发布成功');
      setDoc((d) => (d ? { ...d, status: 1 } : d));
      onPublished();
    } catch {
      // shown by the request layer
    } finally {
      setPublishing(false);
    }
  };

  const close = async () => {
    if (dirty) {
      if (!(await notify.confirm({ title: '放弃修改', content: '设计有未保存的修改，确定离开并放弃它们吗？', okText: '放弃并离开' })))
        return;
      lifecycle.discardDraft();
    }
    onClose();
  };

  // Ctrl+S / ⌘S saves.
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (load.status === 'loading' || (load.status === 'ready' && !doc)) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (load.status === 'error' || !doc)
    return (
      <Result
        status="error"
        title={`视图 ${viewId} 加载失败`}
        subTitle={load.status === 'error' ? load.message : undefined}
        extra={
          <Space>
            <Button type="primary" onClick={() => lifecycle.reload()}>
              重试
            </Button>
            <Button onClick={onClose}>返回列表</Button>
          </Space>
        }
      />
    );

  const countIn = (t: string) => problems.filter((p) => placeOf(p.pointer).tab === t && !isWarning(p)).length;
  const label = (t: string) => {
    const n = countIn(t);
    return n ? (
      <Badge count={n} size="small" offset={[8, -2]}>
        {TAB_LABELS[t]}
      </Badge>
    ) : (
      TAB_LABELS[t]
    );
  };
  const separateForm = doc.template.formOption !== undefined;
  const panes: Record<string, ReactNode> = {
    basic: (
      <BasicPanel
        name={doc.name}
        componentName={String(doc.menu.componentName ?? '')}
        basic={doc.template.basicOption}
        fieldNames={tableNames}
        problems={problems}
        onName={(v) => edit((d) => ({ ...d, name: v, menu: { ...d.menu, name: v } }))}
        onComponentName={(v) => edit((d) => ({ ...d, menu: { ...d.menu, componentName: v } }))}
        onChange={(next) => edit((d) => ({ ...d, template: { ...d.template, basicOption: next } }))}
      />
    ),
    table: (
      <FieldTable
        mode="table"
        list={doc.template.tableOption}
        pointer="/disTemplate/tableOption"
        problems={problems}
        picks={tablePicks}
        onChange={setList.tableOption}
      />
    ),
    form: (
      <div>
        <Space style={{ marginBottom: 12 }}>
          <Switch
            checked={separateForm}
            onChange={async (on) => {
              if (on) edit((d) => ({ ...d, template: { ...d.template, formOption: d.template.tableOption } }));
              else if (
                await notify.confirm({
                  title: '改用表格列',
                  content: '表单将使用表格列，单独设置的表单字段会被丢弃。确定吗？',
                })
              )
                edit((d) => {
                  const { formOption: _dropped, ...rest } = d.template;
                  return { ...d, template: rest };
                });
            }}
          />
          单独设置表单字段（formOption）
        </Space>
        {separateForm ? null : <Alert type="info" showIcon title="表单使用表格列：以下是表格列的表单配置。" style={{ marginBottom: 12 }} />}
        <FieldTable
          key={separateForm ? 'formOption' : 'tableOption'}
          mode="form"
          list={separateForm ? (doc.template.formOption ?? []) : doc.template.tableOption}
          pointer={separateForm ? '/disTemplate/formOption' : '/disTemplate/tableOption'}
          problems={problems}
          picks={formPicks}
          onChange={separateForm ? setList.formOption : setList.tableOption}
        />
      </div>
    ),
    dividers: (
      <DividerPanel list={doc.template.formDividerOption} fieldNames={names} problems={problems} onChange={setList.formDividerOption} />
    ),
    buttons: (
      <ButtonPanel
        list={doc.template.btnDIYOption}
        fieldNames={tableNames}
        views={views}
        problems={problems}
        onChange={setList.btnDIYOption}
      />
    ),
    dialog: (
      <DialogPanel
        dialog={doc.template.dialogOption}
        fieldNames={names}
        problems={problems}
        onChange={(next) => edit((d) => ({ ...d, template: { ...d.template, dialogOption: next } }))}
      />
    ),
    json: (
      <JsonPanel
        template={doc.template}
        diagnoseRaw={diagnoseRaw}
        draft={draft}
        onDraft={setDraft}
        onTemplate={(v) => edit((d) => ({ ...d, template: templateOf(v) }))}
      />
    ),
  };

  return (
    <div className="view-designer" data-view-id={doc.id}>
      <Card variant="borderless" size="small" style={{ marginBottom: 12 }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              设计视图：{doc.name}
            </Typography.Title>
            {doc.status === 1 ? <Tag color="success">已发布</Tag> : <Tag color="warning">草稿</Tag>}
            {dirty ? <Tag color="processing">未保存</Tag> : <Tag>已保存</Tag>}
            {errors.length ? <Tag color="error">{errors.length} 个错误</Tag> : null}
          </Space>
          <Space wrap>
            <Button
              type="primary"
              onClick={() => void save()}
              loading={lifecycle.saving}
              disabled={blocked || !dirty}
              title={blocked ? '有错误的定义不能保存' : undefined}
            >
              保存设计
            </Button>
            {canPublish ? (
              <Button onClick={publish} loading={publishing} disabled={blocked}>
                发布
              </Button>
            ) : null}
            <Button onClick={close}>返回列表</Button>
          </Space>
        </Space>
        {restorable ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            data-draft
            title={`有 ${new Date(restorable.at).toLocaleString('zh-CN')} 未保存的设计修改`}
            description={restorable.stale ? '此后视图已被保存过，恢复将覆盖那次保存的内容。' : undefined}
            action={
              <Space>
                <Button
                  size="small"
                  type="primary"
                  onClick={() => {
                    const d = lifecycle.takeDraft();
                    if (d) edit((cur) => ({ ...d, status: cur.status }));
                  }}
                >
                  恢复
                </Button>
                <Button size="small" onClick={lifecycle.dropDraft}>
                  丢弃
                </Button>
              </Space>
            }
          />
        ) : null}
        {errors.length ? (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 12 }}
            title={`定义有 ${errors.length} 个错误，修正后才能保存（与 wastegen check 相同的检查）`}
            description={
              <ul className="designer-problem-list" data-problems>
                {errors.slice(0, 8).map((p) => (
                  <li key={`${p.pointer}:${p.code}:${p.message}`}>
                    <Button type="link" size="small" style={{ padding: 0, height: 'auto' }} onClick={() => setTab(placeOf(p.pointer).tab)}>
                      {TAB_LABELS[placeOf(p.pointer).tab]}
                    </Button>{' '}
                    <Typography.Text code>{p.pointer || '/'}</Typography.Text> {problemLine(p)}
                  </li>
                ))}
                {errors.length > 8 ? <li>…… 另有 {errors.length - 8} 个</li> : null}
              </ul>
            }
          />
        ) : null}
      </Card>
      <Row gutter={12}>
        <Col xs={24} xl={wide ? 24 : 13}>
          <Card variant="borderless" size="small">
            <Tabs
              activeKey={tab}
              onChange={setTab}
              destroyOnHidden
              items={Object.keys(TAB_LABELS).map((key) => ({
                key,
                label: key === 'json' && draft ? <Badge status="error" text={TAB_LABELS.json} /> : label(key),
                children: panes[key],
              }))}
            />
          </Card>
        </Col>
        <Col xs={24} xl={wide ? 24 : 11}>
          <Card
            variant="borderless"
            size="small"
            title="实时预览（未保存的定义）"
            className={wide ? 'design-preview-card design-preview-wide' : 'design-preview-card'}
            extra={
              <Button size="small" type="link" onClick={() => setWide((w) => !w)} aria-pressed={wide}>
                {wide ? '并排显示' : '全宽显示'}
              </Button>
            }
          >
            <PreviewPane page={analysis.page} problems={problems} version={version} />
          </Card>
        </Col>
      </Row>
      <ConflictDialog document={lifecycle} noun="视图" work="定义" onOverwrite={() => void save(true)} />
    </div>
  );
}
