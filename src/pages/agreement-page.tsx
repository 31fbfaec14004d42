import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Typography } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { APP_PATHS } from '../shared/app-paths';
import { POLICY_TYPE, PolicyView, policyStyle } from './login/policy';

const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二', '十三', '十四', '十五'];

/**
 * The privacy policy's 15 clauses, shown when the server has no privacy policy
 * (type 3) to give: the page must never be empty.
 */
export const PRIVACY_CLAUSES: readonly (readonly [title: string, text: string])[] = [
  [
    '适用范围',
    '本政策适用于危废管理平台（以下简称“本平台”）向产废单位、经营处置单位、运输单位、收集点及监管部门提供的全部服务，包括网页端、移动端及数据接口。',
  ],
  [
    '我们收集的信息',
    '为办理入驻和业务，我们收集企业名称、统一社会信用代码、企业地址、联系人姓名、手机号码、电子邮箱，以及您填报的危险废物类别、代码、数量、贮存、转移和处置信息。',
  ],
  ['信息的使用目的', '上述信息仅用于身份核验、入驻审核、询价与订单撮合、合同与结算管理、台账统计，以及依法向生态环境主管部门报送数据。'],
  ['登录与操作日志', '为保障账号与数据安全，我们记录登录时间、IP地址、浏览器类型和关键操作日志，用于发现异常登录、追溯操作和排查故障。'],
  ['Cookie的使用', '我们使用Cookie和本地存储保存登录状态、界面布局等偏好设置。清除后您需要重新登录，部分个性化设置将恢复默认。'],
  [
    '信息的存储地点与期限',
    '您的信息存储在中华人民共和国境内。我们仅在实现服务目的所必需的期限内保存，法律法规要求保存的危险废物转移和处置记录按规定年限保存。',
  ],
  ['安全保护措施', '我们对传输数据加密，对密码加密存储，按岗位最小授权访问数据，定期备份并开展安全检查，尽力防止信息泄露、篡改或丢失。'],
  ['信息的共享', '除为完成交易向合同相对方提供必要的联系信息，或依法向监管部门报送外，未经您的同意，我们不会与任何第三方共享您的信息。'],
  ['信息的转让', '我们不会转让您的信息。如因合并、分立或资产转让需要转移信息，我们将要求接收方继续遵守本政策，否则将重新征得您的同意。'],
  ['信息的公开披露', '我们只在取得您的明确同意，或法律法规、司法机关及行政主管部门依法要求时，才会公开披露您的信息。'],
  ['您的权利', '您可以查询、更正和补充企业及个人资料，修改密码与邮箱，撤回已作出的数据授权；如需帮助，可通过平台留言联系我们。'],
  ['账号注销', '您可以申请注销账号。注销后我们停止提供服务，并删除或匿名化处理您的信息，依法须保存的交易与转移记录除外。'],
  ['第三方系统', '经您授权，平台会与生态环境部门的固体废物管理信息系统交换数据；第三方系统对信息的处理适用其自身的规定。'],
  ['未成年人信息', '本平台面向企业及监管部门用户，不向未成年人提供服务。如发现误收集未成年人信息，我们将及时删除。'],
  [
    '政策的更新与联系我们',
    '本政策修订后将在平台公布，重大变更将以站内消息提示。对本政策有任何疑问或投诉，请通过平台留言与我们联系，我们将在15个工作日内答复。',
  ],
];

function BuiltInPrivacyPolicy() {
  return (
    <article className="policy-content" data-policy-type="built-in" style={policyStyle}>
      <p>
        本平台深知企业数据与个人信息的重要性，并依照《中华人民共和国个人信息保护法》《中华人民共和国数据安全法》等法律法规保护您的信息。请您在使用本平台前仔细阅读本政策。
      </p>
      {PRIVACY_CLAUSES.map(([title, text], i) => (
        <section key={title}>
          <h3>
            {NUMERALS[i]}、{title}
          </h3>
          <p>{text}</p>
        </section>
      ))}
    </article>
  );
}

const KINDS = {
  service: { title: '服务协议', type: POLICY_TYPE.service },
  privacy: { title: '隐私政策', type: POLICY_TYPE.privacy },
} as const;

/** /serviceAgreement (服务协议) and /privacyPolicy (隐私政策): public, readable without a session. */
export function AgreementPage({ kind }: { kind: 'service' | 'privacy' }) {
  const navigate = useNavigate();
  const { title, type } = KINDS[kind];

  useEffect(() => {
    const previous = document.title;
    document.title = `${title} - ${previous}`;
    return () => {
      document.title = previous;
    };
  }, [title]);

  // Opened in a new tab from the login page there is no history to go back to.
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate(APP_PATHS.login));

  return (
    <Flex justify="center" style={{ minHeight: '100vh', padding: '32px 16px', background: '#f5f7fa' }}>
      <Card style={{ width: '100%', maxWidth: 960, alignSelf: 'flex-start' }}>
        <Flex align="center" justify="space-between" gap={16} wrap style={{ marginBottom: 16 }}>
          <Typography.Title level={2} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Button icon={<ArrowLeftOutlined />} onClick={back}>
            返回
          </Button>
        </Flex>
        <PolicyView key={type} type={type} dropHeading={title} fallback={kind === 'privacy' ? <BuiltInPrivacyPolicy /> : undefined} />
      </Card>
    </Flex>
  );
}
