import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { applyThemeToDocument, readTheme } from './app/theme';
import { App } from './app/App';
import './app/global.css';

// Before the first render, so the page never flashes the wrong background.
applyThemeToDocument(readTheme());
dayjs.locale('zh-cn');

const container = document.getElementById('root');
if (!container) throw new Error('missing #root');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
