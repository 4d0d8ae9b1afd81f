'use strict';
// Site boilerplate a crawler finds around the text it wants: navigation crumbs,
// source/author/date lines, share and follow prompts, copyright and disclaimer
// footers, URLs. Every line is drawn from a template with random names, dates
// and ids, so no two variants carry the same header.

const SITES = [
  '新浪新闻', '网易新闻', '腾讯网', '搜狐', '澎湃新闻', '凤凰网', '人民网', '新华网', '中国新闻网',
  '今日头条', '知乎', '百家号', 'CSDN博客', '豆瓣', '简书', '界面新闻', '环球网', '央视网', '光明网', '东方财富网',
];
const DOMAINS = [
  'news.sina.com.cn', 'www.163.com', 'new.qq.com', 'www.sohu.com', 'www.thepaper.cn', 'news.ifeng.com',
  'www.people.com.cn', 'www.xinhuanet.com', 'www.chinanews.com.cn', 'www.toutiao.com', 'zhuanlan.zhihu.com',
  'baijiahao.baidu.com', 'blog.csdn.net', 'www.douban.com', 'www.jianshu.com',
];
const CHANNELS = ['社会', '国内', '国际', '财经', '科技', '文化', '教育', '读书', '娱乐', '健康', '汽车', '房产', '体育', '历史'];
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建文辉力林斌宇浩凯晨欣怡佳琪晓雪梅鹏飞亮波宁';
const ACCOUNTS = ['读书有味', '文史天地', '每日一读', '深夜书房', '人文课堂', '经典阅读', '城市记忆', '好书推荐', '晚安故事', '学习强国'];
const APPS = ['新浪新闻', '网易新闻', '腾讯新闻', '今日头条', '澎湃新闻', '凤凰新闻'];
const DEVICES = ['iPhone客户端', 'Android客户端', '华为Mate 60', '小米14', 'iPad', '微博 weibo.com', 'vivo X100'];
const TOPICS = ['好物分享', '今日热点', '读书打卡', '微博热搜', '每日一句', '生活记录', '网购心得'];

function name(rng) {
  return rng.pick([...SURNAMES]) + rng.pick([...GIVEN]) + (rng.chance(0.6) ? rng.pick([...GIVEN]) : '');
}

function date(rng, sep = '-') {
  const y = rng.range(2012, 2024);
  const m = String(rng.range(1, 12)).padStart(2, '0');
  const d = String(rng.range(1, 28)).padStart(2, '0');
  return sep === '年' ? `${y}年${m}月${d}日` : [y, m, d].join(sep);
}

function time(rng) {
  return `${String(rng.range(0, 23)).padStart(2, '0')}:${String(rng.range(0, 59)).padStart(2, '0')}`;
}

function url(rng) {
  const domain = rng.pick(DOMAINS);
  switch (rng.int(4)) {
    case 0: return `https://${domain}/${rng.range(2015, 2024)}/${rng.digits(4)}/${rng.digits(8)}.html`;
    case 1: return `https://${domain}/article/${rng.hex(16).toUpperCase()}.html`;
    case 2: return `https://mp.weixin.qq.com/s/${rng.hex(22)}`;
    default: return `https://${domain}/p/${rng.digits(9)}?from=timeline&isappinstalled=0`;
  }
}

function count(rng) {
  return rng.chance(0.3) ? `${rng.range(1, 9)}.${rng.int(10)}万` : String(rng.range(12, 9999));
}

function icp(rng) {
  return `${rng.pick(['京', '沪', '粤', '浙', '苏'])}ICP备${rng.digits(8)}号-${rng.range(1, 9)}`;
}

/** Lines that open an article page. */
const HEADER_LINES = [
  (r) => `首页 > ${r.pick(CHANNELS)} > 正文`,
  (r) => `您当前的位置：首页 » ${r.pick(CHANNELS)}频道 » ${r.pick(CHANNELS)}`,
  (r) => `来源：${r.pick(SITES)}　作者：${name(r)}　${date(r)} ${time(r)}`,
  (r) => `发布时间：${date(r)} ${time(r)}　　来源：${r.pick(SITES)}　　编辑：${name(r)}`,
  (r) => `${date(r, '年')} ${time(r)} 来源：${r.pick(SITES)} 阅读：${count(r)}`,
  () => '字号：大 中 小　　【打印】【关闭窗口】',
  (r) => `点击上方“${r.pick(ACCOUNTS)}”，关注我们，获取更多精彩内容`,
  (r) => `原创 ${name(r)} ${r.pick(ACCOUNTS)} ${date(r)} ${time(r)} 发表于${r.pick(['北京', '上海', '广东', '浙江', '江苏'])}`,
  () => '分享到：微信 微博 QQ空间 复制链接',
  (r) => `阅读 ${count(r)} · 评论 ${r.range(0, 999)} · 点赞 ${count(r)}`,
  (r) => `本文转载自${r.pick(SITES)}，如有侵权请联系删除。`,
  () => '（此文章由AI生成摘要）',
];

/** Lines that close an article page. */
const FOOTER_LINES = [
  (r) => `（责任编辑：${name(r)}）`,
  (r) => `本文来源：${r.pick(SITES)}　　责任编辑：${name(r)}_N${r.digits(4)}`,
  (r) => `版权声明：本文为${r.pick(SITES)}原创内容，未经授权禁止转载，违者必究。`,
  (r) => `Copyright © ${r.range(1998, 2010)}-${r.range(2020, 2024)} ${r.pick(SITES)} 版权所有　${icp(r)}`,
  (r) => `原文链接：${url(r)}`,
  () => '免责声明：本文仅代表作者个人观点，与本网站无关。其原创性以及文中陈述文字和内容未经本站证实，请读者仅作参考，并请自行核实相关内容。',
  () => '点击关注，第一时间了解更多精彩内容~',
  (r) => `扫描下方二维码，关注“${r.pick(ACCOUNTS)}”微信公众号`,
  (r) => `点赞 ${count(r)}　收藏 ${r.range(1, 999)}　分享　举报/反馈`,
  (r) => `更多精彩内容，请下载${r.pick(APPS)}客户端`,
  (r) => `【纠错】　　【责任编辑：${name(r)}】`,
  (r) => `相关阅读：${r.pick(CHANNELS)}频道 | 热门推荐 | 24小时排行`,
  (r) => `${r.pick(['本文', '该内容'])}首发于${r.pick(SITES)}，转载请注明出处：${url(r)}`,
  () => '特别声明：以上内容(如有图片或视频亦包括在内)为自媒体平台用户上传并发布，本平台仅提供信息存储服务。',
];

/** Short prefixes and suffixes for short texts (titles, posts, comments). */
const SHORT_HEADERS = [
  () => '【转】',
  () => '原创 ',
  (r) => `#${r.pick(TOPICS)}# `,
  () => '转发微博 ',
  (r) => `【${r.pick(SITES)}】`,
  (r) => `${date(r)} `,
  (r) => `回复 @${name(r)}：`,
  () => '[置顶] ',
  () => '楼主 ',
];
const SHORT_FOOTERS = [
  (r) => ` - ${r.pick(SITES)}`,
  (r) => `_${r.pick(SITES)}`,
  (r) => `｜${r.pick(SITES)}`,
  (r) => ` 来自${r.pick(DEVICES)}`,
  (r) => ` 发布于 ${date(r)} ${time(r)}`,
  (r) => `（来源：${r.pick(SITES)}）`,
  (r) => ` 转自${r.pick(SITES)}`,
  () => ' [图片]',
  () => ' 点击查看原文>>',
  (r) => ` ${url(r)}`,
];

/** One to three distinct lines from `pool`. */
function lines(rng, pool, max = 3) {
  const picked = rng.sample(pool, rng.range(1, max));
  return picked.map((make) => make(rng));
}

function documentHeader(rng) {
  return lines(rng, HEADER_LINES).join('\n');
}

function documentFooter(rng) {
  return lines(rng, FOOTER_LINES).join('\n');
}

function shortHeader(rng) {
  return rng.pick(SHORT_HEADERS)(rng);
}

function shortFooter(rng) {
  return rng.pick(SHORT_FOOTERS)(rng);
}

module.exports = { documentHeader, documentFooter, shortHeader, shortFooter, url, name, date, time };
