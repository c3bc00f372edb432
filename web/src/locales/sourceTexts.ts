import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Finds the texts of the console sources, for the catalogue check. Every `t('…')` argument and every Chinese
 * string literal is a translation key: most Chinese sits directly in `t('…')`, the rest are labels in tables (menu
 * entries, option fields, status names) that reach `t` through a variable. Chinese written where `t` cannot see it — bare JSX text, a
 * string attribute of an antd or HTML element, a template literal with `${}` — is reported instead, since it
 * would stay Chinese. (String attributes of the console's own components are keys: those components call `t`.)
 */
const CHINESE = /[\u3400-\u9fff]/;
const CHINESE_OR_FULL_WIDTH = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/** Keys in plain ASCII ('GitHub', 'Base URL') read the same in English and need no entry. */
export const needsTranslation = (key: string): boolean => CHINESE_OR_FULL_WIDTH.test(key);

export interface TextProblem {
  where: string;
  text: string;
  why: string;
}

export interface SourceTexts {
  keys: Map<string, string>; // key -> first place it occurs
  problems: TextProblem[];
}

export function scanSource(fileName: string, code: string, into: SourceTexts): void {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const where = (node: ts.Node) => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const problem = (node: ts.Node, text: string, why: string) => into.problems.push({ where: where(node), text, why });
  const antdNames = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== 'antd') continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) antdNames.add(el.name.text);
  }
  // <div>, <Button>, <Typography.Text>: elements that show an attribute as it is.
  const showsAttributesVerbatim = (attribute: ts.JsxAttribute): boolean => {
    const element = attribute.parent.parent;
    const tag = element.tagName.getText(source);
    return /^[a-z]/.test(tag) || antdNames.has(tag.split('.')[0]);
  };

  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
      // A t('…') key without Chinese, e.g. punctuation around placeholders ('{label}：{value}').
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first) && !into.keys.has(first.text)) into.keys.set(first.text, where(first));
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (CHINESE.test(node.text)) {
        if (ts.isJsxAttribute(node.parent) && showsAttributesVerbatim(node.parent)) {
          problem(node, node.text, 'string attribute shown as it is: wrap it as {t(…)}');
        }
        else if (!into.keys.has(node.text)) into.keys.set(node.text, where(node));
      }
    } else if (ts.isJsxText(node)) {
      const text = node.text.trim();
      if (CHINESE.test(text)) problem(node, text, 'bare JSX text: wrap it as {t(…)}');
    } else if (ts.isTemplateExpression(node)) {
      const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('${}');
      if (CHINESE.test(pieces)) problem(node, pieces, 'template literal: use t(\'…{name}…\', { name })');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const isSource = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts');

function sourceFiles(dir: string, skip: string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (skip.includes(full)) return [];
    if (entry.isDirectory()) return sourceFiles(full, skip);
    return isSource(entry.name) ? [full] : [];
  });
}

interface ScanPlan {
  /** Directories scanned for sources, tests excepted. */
  roots: string[];
  /** Directories or files under the roots left out (the catalogues themselves). */
  skip: string[];
  /** Single files scanned besides. */
  files: string[];
  /** Where reported paths start. */
  relativeTo: string;
}

export function scanTexts({ roots, skip, files, relativeTo }: ScanPlan): SourceTexts {
  const into: SourceTexts = { keys: new Map(), problems: [] };
  for (const file of [...roots.flatMap((root) => sourceFiles(root, skip)), ...files]) {
    scanSource(path.relative(relativeTo, file), readFileSync(file, 'utf8'), into);
  }
  return into;
}
