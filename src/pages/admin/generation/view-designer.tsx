import { Alert, Badge, Button, Card, Col, Result, Row, Space, Spin, Switch, Tabs, Tag, Typography } from 'antd';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { isWarning, type ListPageModel, type Problem } from '../../../model';
import { notify } from '../../../notify/notifier';
import { setCloseGuard } from '../../../shell/close-guards';
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
  readJsonObject,
  type Template,
  templateOf,
  templateText,
} from './designer-model';
import { BasicPanel, ButtonPanel, DialogPanel, DividerPanel, JsonPanel } from './designer-panels';
import { FieldTable, type PickLists } from './field-table';
import { viewApi } from './generation-api';
import { problemLine } from './problem-ui';
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
interface StoredDraft {
  /** The saved definition the edits started from. */
  base: string;
  doc: DesignDoc;
  at: string;
}
function readDraft(id: number): StoredDraft | undefined {
  try {
    const v = JSON.parse(localStorage.getItem(draftKey(id)) ?? 'null') as StoredDraft | null;
    return v && typeof v.base === 'string' && v.doc && v.doc.id === id
      ? { ...v, doc: { ...v.doc, template: templateOf(v.doc.template) } }
      : undefined;
  } catch {
    return undefined;
  }
}
function writeDraft(id: number, draft: StoredDraft | undefined): void {
  try {
    if (draft) localStorage.setItem(draftKey(id), JSON.stringify(draft));
    else localStorage.removeItem(draftKey(id));
  } catch {
    // Storage full or off: the edits stay on screen, only not across a reload.
  }
}

function docOf(row: { id: number; name: string; status: number; disMenu: string | null; disTemplate: string | null }): DesignDoc {
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
}: {
  viewId: number;
  canPublish: boolean;
  onClose: () => void;
  onPublished: () => void;
}) {
  const [load, setLoad] = useState<{ status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready' }>({
    status: 'loading',
  });
  const [doc, setDoc] = useState<DesignDoc | undefined>();
  const [saved, setSaved] = useState('');
  const [tab, setTab] = useState('table');
  const [draft, setDraft] = useState<{ text: string; error: string } | undefined>();
  const [dicts, setDicts] = useState<{ names: string[]; loaded: boolean }>({ names: [], loaded: false });
  const [views, setViews] = useState<{ id: number; name: string }[]>([]);
  const [saving, setSaving] = useState<'save' | 'publish' | undefined>();
  const [version, setVersion] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const [wide, setWide] = useState(false);
  const [restorable, setRestorable] = useState<(StoredDraft & { stale: boolean }) | undefined>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt asks for the definition again
  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    viewApi
      .detail(viewId)
      .then((row) => {
        if (!live) return;
        const d = docOf(row);
        setDoc(d);
        setSaved(snapshot(d));
        const stored = readDraft(row.id);
        if (stored && snapshot(stored.doc) !== snapshot(d)) setRestorable({ ...stored, stale: stored.base !== snapshot(d) });
        else if (stored) writeDraft(row.id, undefined);
        setLoad({ status: 'ready' });
      })
      .catch((e: unknown) => live && setLoad({ status: 'failed', message: e instanceof Error ? e.message : String(e) }));
    viewApi
      .dictNames()
      .then((list) => live && setDicts({ names: list.map((d) => d.name), loaded: true }))
      .catch(() => undefined);
    viewApi
      .list({ page: 0, size: 9999 })
      .then((page) => live && setViews(page.content.map((v) => ({ id: v.id, name: v.name }))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [viewId, attempt]);

  const edit = useCallback((f: (d: DesignDoc) => DesignDoc) => {
    setDoc((d) => (d ? f(d) : d));
    setVersion((v) => v + 1);
  }, []);
  const setList = useMemo(() => {
    const make = (key: ListKey) => (next: Json[]) => edit((d) => ({ ...d, template: { ...d.template, [key]: next } }));
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
  const dirty = !!doc && snapshot(doc) !== saved;
  const blocked = errors.length > 0 || !!draft;

  // Unsaved edits are kept in the browser (half a second after the last one) until saved or discarded.
  useEffect(() => {
    if (!doc || !dirty || restorable) return;
    const t = window.setTimeout(() => writeDraft(doc.id, { base: saved, doc, at: new Date().toLocaleString('zh-CN') }), 500);
    return () => window.clearTimeout(t);
  }, [doc, dirty, saved, restorable]);

  // Closing the page's tab with unsaved edits asks first (they stay kept in the browser either way).
  const { pathname } = useLocation();
  useEffect(() => {
    if (!dirty) return;
    return setCloseGuard(pathname, () =>
      notify.confirm({
        title: '设计尚未保存',
        content: '关闭后可在下次打开设计时恢复未保存的修改。确定关闭吗？',
        okText: '关闭',
        cancelText: '取消',
      }),
    );
  }, [dirty, pathname]);

  // Leaving the browser page with unsaved edits asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

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

  const save = async (): Promise<boolean> => {
    if (!doc) return false;
    if (blocked) {
      notify.error(draft ? '模板 JSON 有语法错误，不能保存' : `定义有 ${errors.length} 个错误，不能保存`);
      return false;
    }
    const sent = snapshot(doc);
    setSaving('save');
    try {
      const res = await viewApi.design(doc.id, templateText(doc.template), JSON.stringify(doc.menu));
      const before = JSON.parse(saved) as [string];
      if (before[0] !== doc.name) await viewApi.update({ id: doc.id, name: doc.name.trim() });
      setSaved(sent);
      writeDraft(doc.id, undefined);
      notify.success(res.message || '保存成功');
      return true;
    } catch {
      // The request layer has shown the server's message; the edits stay.
      return false;
    } finally {
      setSaving(undefined);
    }
  };

  const publish = async () => {
    if (!doc) return;
    if (dirty && !(await save())) return;
    setSaving('publish');
    try {
      const res = await viewApi.publish(doc.id);
      notify.success(res.message || '发布成功');
      setDoc((d) => (d ? { ...d, status: 1 } : d));
      onPublished();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(undefined);
    }
  };

  const close = async () => {
    if (dirty) {
      if (!(await notify.confirm({ title: '放弃修改', content: '设计有未保存的修改，确定离开并放弃它们吗？', okText: '放弃并离开' })))
        return;
      writeDraft(viewId, undefined);
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

  if (load.status === 'loading') return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (load.status === 'failed' || !doc)
    return (
      <Result
        status="error"
        title={`视图 ${viewId} 加载失败`}
        subTitle={load.status === 'failed' ? load.message : undefined}
        extra={
          <Space>
            <Button type="primary" onClick={() => setAttempt((n) => n + 1)}>
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
              onClick={save}
              loading={saving === 'save'}
              disabled={blocked || !dirty}
              title={blocked ? '有错误的定义不能保存' : undefined}
            >
              保存设计
            </Button>
            {canPublish ? (
              <Button onClick={publish} loading={saving === 'publish'} disabled={blocked}>
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
            title={`有 ${restorable.at} 未保存的设计修改`}
            description={restorable.stale ? '此后视图已被保存过，恢复将覆盖那次保存的内容。' : undefined}
            action={
              <Space>
                <Button
                  size="small"
                  type="primary"
                  onClick={() => {
                    edit((d) => ({ ...restorable.doc, status: d.status }));
                    setRestorable(undefined);
                  }}
                >
                  恢复
                </Button>
                <Button
                  size="small"
                  onClick={() => {
                    writeDraft(viewId, undefined);
                    setRestorable(undefined);
                  }}
                >
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
              items={[
                {
                  key: 'basic',
                  label: label('basic'),
                  children: (
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
                },
                {
                  key: 'table',
                  label: label('table'),
                  children: (
                    <FieldTable
                      mode="table"
                      list={doc.template.tableOption}
                      pointer="/disTemplate/tableOption"
                      problems={problems}
                      picks={tablePicks}
                      onChange={setList.tableOption}
                    />
                  ),
                },
                {
                  key: 'form',
                  label: label('form'),
                  children: (
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
                      {separateForm ? (
                        <FieldTable
                          mode="form"
                          list={doc.template.formOption ?? []}
                          pointer="/disTemplate/formOption"
                          problems={problems}
                          picks={formPicks}
                          onChange={setList.formOption}
                        />
                      ) : (
                        <>
                          <Alert type="info" showIcon title="表单使用表格列：以下是表格列的表单配置。" style={{ marginBottom: 12 }} />
                          <FieldTable
                            mode="form"
                            list={doc.template.tableOption}
                            pointer="/disTemplate/tableOption"
                            problems={problems}
                            picks={formPicks}
                            onChange={setList.tableOption}
                          />
                        </>
                      )}
                    </div>
                  ),
                },
                {
                  key: 'dividers',
                  label: label('dividers'),
                  children: (
                    <DividerPanel
                      list={doc.template.formDividerOption}
                      fieldNames={names}
                      problems={problems}
                      onChange={setList.formDividerOption}
                    />
                  ),
                },
                {
                  key: 'buttons',
                  label: label('buttons'),
                  children: (
                    <ButtonPanel
                      list={doc.template.btnDIYOption}
                      fieldNames={tableNames}
                      views={views}
                      problems={problems}
                      onChange={setList.btnDIYOption}
                    />
                  ),
                },
                {
                  key: 'dialog',
                  label: label('dialog'),
                  children: (
                    <DialogPanel
                      dialog={doc.template.dialogOption}
                      fieldNames={names}
                      problems={problems}
                      onChange={(next) => edit((d) => ({ ...d, template: { ...d.template, dialogOption: next } }))}
                    />
                  ),
                },
                {
                  key: 'json',
                  label: draft ? <Badge status="error" text={TAB_LABELS.json} /> : label('json'),
                  children: (
                    <JsonPanel
                      template={doc.template}
                      diagnoseRaw={diagnoseRaw}
                      draft={draft}
                      onDraft={setDraft}
                      onTemplate={(v) => edit((d) => ({ ...d, template: templateOf(v) }))}
                    />
                  ),
                },
              ]}
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
    </div>
  );
}
