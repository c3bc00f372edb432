import { CODE_TTL_SECONDS } from '../../auth/verification/index.js';
/** The mails users get, worded as the established gateway words them. The system name is set by an administrator. */
const VALID_MINUTES = CODE_TTL_SECONDS / 60;
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
export function verificationMail(systemName, to, code) {
    const name = escapeHtml(systemName);
    return {
        to,
        subject: `${systemName}邮箱验证邮件`,
        html: `<p>您好，你正在进行${name}邮箱验证。</p>` +
            `<p>您的验证码为: <strong>${escapeHtml(code)}</strong></p>` +
            `<p>验证码 ${VALID_MINUTES} 分钟内有效，如果不是本人操作，请忽略。</p>`,
        text: `您好，你正在进行${systemName}邮箱验证。\n您的验证码为: ${code}\n验证码 ${VALID_MINUTES} 分钟内有效，如果不是本人操作，请忽略。\n`,
    };
}
export function passwordResetMail(systemName, to, link) {
    const name = escapeHtml(systemName);
    const href = escapeHtml(link);
    return {
        to,
        subject: `${systemName}密码重置`,
        html: `<p>您好，你正在进行${name}密码重置。</p>` +
            `<p>点击 <a href="${href}">此处</a> 进行密码重置。</p>` +
            `<p>如果链接无法点击，请尝试点击下面的链接或将其复制到浏览器中打开：<br> ${href} </p>` +
            `<p>重置链接 ${VALID_MINUTES} 分钟内有效，如果不是本人操作，请忽略。</p>`,
        text: `您好，你正在进行${systemName}密码重置。\n请将下面的链接复制到浏览器中打开以重置密码：\n${link}\n重置链接 ${VALID_MINUTES} 分钟内有效，如果不是本人操作，请忽略。\n`,
    };
}
//# sourceMappingURL=messages.js.map