#include "ui/dialogs/definition_file_dialog.hpp"

#include "ui/widgets/mission_browser.hpp"

#include "core/mdb/validate.hpp"
#include "core/xtce/xtce_import.hpp"
#include "ui/dialogs/error_label.hpp"
#include "ui/text/number_format.hpp"

#include <QAbstractTableModel>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QIcon>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPaintEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

namespace telestation::ui {
namespace {

// A definition file is a few hundred kilobytes at most; anything far larger was chosen by mistake
// (a recording, an image) and would only freeze the text view.
constexpr qint64 kMaxFileBytes = 32LL * 1024 * 1024;

// What an SQLite file starts with: a compiled mission database (*.mdb) is not a text definition.
constexpr char kSqliteMagic[] = "SQLite format 3";

const QColor kErrorLine(255, 222, 222);
const QColor kErrorLineCurrent(255, 170, 170);
const QColor kWarningLine(255, 244, 204);
const QColor kWarningLineCurrent(255, 221, 120);

QString severityText(Severity s)
{
    return s == Severity::Error ? DefinitionFileDialog::tr("error") : DefinitionFileDialog::tr("warning");
}

Diagnostic fileError(const QString& path, const QString& why)
{
    return Diagnostic{Severity::Error, (QStringLiteral("cannot read '%1': %2").arg(path, why)).toStdString(),
                      SourceLocation{path.toStdString(), 0, 0}};
}

// The text as the editor shows it, one block per line of the parser: the parser splits lines at '\n'
// only, while the editor would also start a block at a '\r'.
QString displayText(const QByteArray& content)
{
    QString text = QString::fromUtf8(content);
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    text.replace(QLatin1Char('\r'), QLatin1Char(' ')); // a blank to the parser too, same width in bytes
    return text;
}

// XTCE is XML: its first character (after a byte-order mark and blanks) opens a tag. A text definition
// starts with a keyword or a comment.
bool looksLikeXml(const QByteArray& content)
{
    qsizetype i = content.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < content.size() && (content[i] == ' ' || content[i] == '\t' || content[i] == '\r' || content[i] == '\n'))
        ++i;
    return i < content.size() && content[i] == '<';
}

// An XTCE file, imported leniently so that the browser shows what can be used: what the importer does
// not support is listed as a warning at its line; what is wrong with the file is an error. The
// mission database's own validation follows, as for a text definition.
mdb::ImportResult importXml(const QByteArray& content, const QString& fileName)
{
    xtce::ImportOptions options;
    options.lenient = true;
    xtce::ImportResult imported = xtce::importXtce(
        std::string_view(content.constData(), static_cast<std::size_t>(content.size())), fileName.toStdString(), options);
    mdb::ImportResult out;
    out.diagnostics = std::move(imported.diagnostics);
    if (imported.ok()) {
        out.database = std::move(imported.database);
        for (auto& d : mdb::toDiagnostics(mdb::validate(out.database), fileName.toStdString()))
            out.diagnostics.push_back(std::move(d));
    }
    return out;
}

} // namespace

// ---- the diagnostics table ----

class DefinitionFileDialog::DiagnosticsModel : public QAbstractTableModel {
public:
    enum Column { SeverityColumn, LineColumn, ColumnColumn, MessageColumn, ColumnCount };

    DiagnosticsModel(const Diagnostics& diagnostics, QObject* parent)
        : QAbstractTableModel(parent), m_diagnostics(diagnostics)
    {
        const QStyle* style = QApplication::style();
        m_errorIcon = style->standardIcon(QStyle::SP_MessageBoxCritical);
        m_warningIcon = style->standardIcon(QStyle::SP_MessageBoxWarning);
    }

    void reset()
    {
        beginResetModel();
        endResetModel();
    }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_diagnostics.size());
    }
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : ColumnCount;
    }

    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        const Diagnostic& d = m_diagnostics[static_cast<std::size_t>(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case SeverityColumn:
                return severityText(d.severity);
            case LineColumn:
                return d.where.line > 0 ? QVariant(d.where.line) : QVariant(QStringLiteral("\u2014"));
            case ColumnColumn:
                return d.where.column > 0 ? QVariant(d.where.column) : QVariant();
            case MessageColumn:
                return QString::fromStdString(d.message);
            default:
                return {};
            }
        case Qt::DecorationRole:
            if (index.column() == SeverityColumn)
                return d.severity == Severity::Error ? m_errorIcon : m_warningIcon;
            return {};
        case Qt::ToolTipRole:
            return QString::fromStdString(d.toString());
        case Qt::TextAlignmentRole:
            if (index.column() == LineColumn || index.column() == ColumnColumn)
                return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
            return {};
        default:
            return {};
        }
    }

    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return {};
        switch (section) {
        case SeverityColumn: return DefinitionFileDialog::tr("Severity");
        case LineColumn: return DefinitionFileDialog::tr("Line");
        case ColumnColumn: return DefinitionFileDialog::tr("Column");
        case MessageColumn: return DefinitionFileDialog::tr("Message");
        default: return {};
        }
    }

private:
    const Diagnostics& m_diagnostics;
    QIcon m_errorIcon;
    QIcon m_warningIcon;
};

// ---- the text with line numbers ----

class DefinitionFileDialog::NumberedTextEdit : public QPlainTextEdit {
public:
    explicit NumberedTextEdit(QWidget* parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this))
    {
        connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateGutterWidth(); });
        connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
            if (dy != 0)
                m_gutter->scroll(0, dy);
            else
                m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
        });
        updateGutterWidth();
    }

    // Lines (1-based) whose numbers are drawn in the colour of their worst diagnostic.
    void setMarks(QHash<int, Severity> marks)
    {
        m_marks = std::move(marks);
        m_gutter->update();
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QPlainTextEdit::resizeEvent(event);
        const QRect r = contentsRect();
        m_gutter->setGeometry(r.left(), r.top(), gutterWidth(), r.height());
    }

private:
    class Gutter : public QWidget {
    public:
        explicit Gutter(NumberedTextEdit* editor) : QWidget(editor), m_editor(editor) {}

    protected:
        void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event->rect()); }

    private:
        NumberedTextEdit* m_editor;
    };

    [[nodiscard]] int gutterWidth() const
    {
        int digits = 1;
        for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
            ++digits;
        return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3);
    }

    void updateGutterWidth()
    {
        setViewportMargins(gutterWidth(), 0, 0, 0);
        const QRect r = contentsRect();
        m_gutter->setGeometry(r.left(), r.top(), gutterWidth(), r.height());
    }

    void paintGutter(const QRect& area)
    {
        QPainter painter(m_gutter);
        painter.fillRect(area, palette().color(QPalette::Window));
        const QColor normal = palette().color(QPalette::PlaceholderText);
        QFont bold = font();
        bold.setBold(true);
        const int right = m_gutter->width() - 8;
        const int height = fontMetrics().height();

        QTextBlock block = firstVisibleBlock();
        qreal top = blockBoundingGeometry(block).translated(contentOffset()).top();
        while (block.isValid() && top <= area.bottom()) {
            const qreal bottom = top + blockBoundingRect(block).height();
            if (block.isVisible() && bottom >= area.top()) {
                const int line = block.blockNumber() + 1;
                const auto mark = m_marks.constFind(line);
                if (mark == m_marks.constEnd()) {
                    painter.setFont(font());
                    painter.setPen(normal);
                } else {
                    painter.setFont(bold);
                    painter.setPen(*mark == Severity::Error ? QColor(190, 0, 0) : QColor(160, 110, 0));
                }
                painter.drawText(0, static_cast<int>(top), right, height, Qt::AlignRight | Qt::AlignVCenter,
                                 QString::number(line));
            }
            block = block.next();
            top = bottom;
        }
    }

    Gutter* m_gutter;
    QHash<int, Severity> m_marks;
};

// ---- the dialog ----

DefinitionFileDialog::DefinitionFileDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("DefinitionFileDialog"));
    setWindowTitle(tr("Definition File"));

    m_fileLabel = new QLabel(this);
    m_fileLabel->setObjectName(QStringLiteral("fileLabel"));
    m_fileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_icon = new QLabel(this);
    m_resultLabel = new QLabel(this);
    m_resultLabel->setObjectName(QStringLiteral("resultLabel"));
    m_resultLabel->setWordWrap(true);
    QFont strong = m_resultLabel->font();
    strong.setBold(true);
    m_resultLabel->setFont(strong);

    m_model = new DiagnosticsModel(m_result.diagnostics, this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("diagnosticsView"));
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    QHeaderView* header = m_table->horizontalHeader();
    header->setStretchLastSection(true);
    header->setHighlightSections(false);
    const QFontMetrics fm = m_table->fontMetrics();
    header->resizeSection(DiagnosticsModel::SeverityColumn, fm.horizontalAdvance(tr("warning")) + 48);
    header->resizeSection(DiagnosticsModel::LineColumn, fm.horizontalAdvance(QStringLiteral("Line 8888")));
    header->resizeSection(DiagnosticsModel::ColumnColumn, fm.horizontalAdvance(QStringLiteral("Column 88")));

    m_text = new NumberedTextEdit(this);
    m_text->setObjectName(QStringLiteral("definitionText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // The cursor shows where a diagnostic points, even though the text cannot be edited.
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);

    m_browser = new MissionBrowser(this);
    m_browser->setDefinitionFileButtonVisible(false);
    m_browser->setLimitsEditable(false); // a file's result, not the running station's database

    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(m_text);
    lower->addWidget(m_browser);
    lower->setStretchFactor(0, 2);
    lower->setStretchFactor(1, 3);
    lower->setSizes({460, 690});
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(m_table);
    m_split->addWidget(lower);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 3);
    m_split->setSizes({170, 480});

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_reloadButton = buttons->addButton(tr("Reload"), QDialogButtonBox::ActionRole);
    m_reloadButton->setObjectName(QStringLiteral("reloadButton"));
    m_reloadButton->setToolTip(tr("Read the file again (after editing it)"));
    m_reloadButton->setEnabled(false);
    m_useButton = buttons->addButton(tr("&Use this mission"), QDialogButtonBox::ActionRole);
    m_useButton->setObjectName(QStringLiteral("useMissionButton"));
    m_useButton->setToolTip(tr("Load this file as the station's mission database (the profile then names it)"));
    m_useButton->hide();
    m_useErrorLabel = newErrorLabel(this, QStringLiteral("useMissionError"));

    auto* resultRow = new QHBoxLayout;
    resultRow->addWidget(m_icon);
    resultRow->addWidget(m_resultLabel, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_fileLabel);
    layout->addLayout(resultRow);
    layout->addWidget(m_split, 1);
    layout->addWidget(m_useErrorLabel);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Not the box's accepted(): the dialog closes only once the mission is in use.
    connect(m_useButton, &QPushButton::clicked, this, [this] { useMission(); });
    connect(m_reloadButton, &QPushButton::clicked, this, [this] { reload(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { goToDiagnostic(current.row()); });
    // Clicking the current row again returns to its line after the operator moved away.
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) { goToDiagnostic(index.row()); });

    resize(1150, 720);
}

DefinitionFileDialog::~DefinitionFileDialog()
{
    // The child widgets outlive m_result (QWidget deletes them after this body and the members are
    // gone) and may still be asked for data while the dialog hides: let them point at nothing.
    m_browser->setDatabase(nullptr);
    m_table->setModel(nullptr);
}

QPlainTextEdit* DefinitionFileDialog::textView() const noexcept
{
    return m_text;
}

bool DefinitionFileDialog::loadFile(const QString& path)
{
    m_path = path;
    m_reloadButton->setEnabled(!path.isEmpty());
    QFile file(path);
    QString why;
    QByteArray content;
    if (path.isEmpty()) {
        why = tr("no file name given");
    } else if (QFileInfo(path).isDir()) {
        why = tr("it is a directory");
    } else if (!file.open(QIODevice::ReadOnly)) {
        why = file.errorString();
    } else if (file.size() > kMaxFileBytes) {
        why = tr("%1 bytes is too large for a definition file (at most %2)")
                  .arg(QLocale().toString(file.size()), QLocale().formattedDataSize(kMaxFileBytes));
    } else {
        content = file.readAll();
        if (file.error() != QFileDevice::NoError)
            why = file.errorString();
        else if (content.startsWith(QByteArray(kSqliteMagic)))
            why = tr("it is a compiled mission database (SQLite), not a text definition file");
    }
    if (why.isEmpty())
        return setDefinition(content, path);

    // Not read: one error naming the path, and nothing else to show.
    m_browser->setDatabase(nullptr);
    m_fileName = path;
    m_result = mdb::ImportResult{};
    m_result.diagnostics.push_back(fileError(path, why));
    m_readFailed = true;
    showResult(QString());
    m_text->hide();
    return false;
}

bool DefinitionFileDialog::setDefinition(const QByteArray& content, const QString& fileName)
{
    m_browser->setDatabase(nullptr); // it points into m_result, which is replaced
    m_fileName = fileName;
    m_readFailed = false;
    m_result = looksLikeXml(content)
        ? importXml(content, fileName)
        : mdb::parseText(std::string_view(content.constData(), static_cast<std::size_t>(content.size())),
                         fileName.toStdString());
    std::stable_sort(m_result.diagnostics.begin(), m_result.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         return std::pair(a.where.line, a.where.column) < std::pair(b.where.line, b.where.column);
                     });
    showResult(displayText(content));
    m_text->show();
    return !hasErrors();
}

bool DefinitionFileDialog::reload()
{
    return loadFile(m_path);
}

void DefinitionFileDialog::showResult(const QString& text)
{
    m_text->setPlainText(text);
    m_model->reset();
    m_fileLabel->setText(tr("File: %1").arg(m_fileName));
    setWindowTitle(tr("Definition File \u2014 %1").arg(QFileInfo(m_fileName).fileName()));

    QHash<int, Severity> marks;
    for (const Diagnostic& d : m_result.diagnostics)
        if (d.where.line > 0 && (d.severity == Severity::Error || !marks.contains(d.where.line)))
            marks.insert(d.where.line, d.severity);
    m_text->setMarks(std::move(marks));

    const bool errors = hasErrors();
    const QStyle::StandardPixmap pixmap = errors            ? QStyle::SP_MessageBoxCritical
                                          : warningCount() ? QStyle::SP_MessageBoxWarning
                                                           : QStyle::SP_DialogApplyButton;
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize) * 2;
    m_icon->setPixmap(style()->standardIcon(pixmap).pixmap(iconSize, iconSize));
    m_resultLabel->setText(resultText());

    m_table->setVisible(diagnosticCount() > 0);
    m_browser->setVisible(!errors);
    if (!errors)
        m_browser->setDatabase(&m_result.database, m_fileName);

    if (diagnosticCount() > 0)
        selectDiagnostic(0); // the first problem in view at once
    else
        highlightLines(-1);
    m_useError.clear();
    m_useErrorLabel->hide();
    updateUseButton();
}

void DefinitionFileDialog::setUseMission(UseMission use)
{
    m_useMission = std::move(use);
    updateUseButton();
}

bool DefinitionFileDialog::canUseMission() const
{
    // A file that was read (not text handed in) and has no error.
    return m_useMission && !m_path.isEmpty() && !m_readFailed && !hasErrors();
}

void DefinitionFileDialog::updateUseButton()
{
    m_useButton->setVisible(m_useMission != nullptr);
    m_useButton->setEnabled(canUseMission());
}

bool DefinitionFileDialog::useMission()
{
    if (!canUseMission())
        return false;
    QString error;
    if (!m_useMission(m_path, &error)) {
        m_useError = error.isEmpty() ? tr("The station could not use this mission.") : error;
        m_useErrorLabel->setText(m_useError);
        m_useErrorLabel->show();
        return false;
    }
    m_useError.clear();
    accept();
    return true;
}

int DefinitionFileDialog::errorCount() const
{
    return static_cast<int>(std::count_if(m_result.diagnostics.begin(), m_result.diagnostics.end(),
                                          [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

int DefinitionFileDialog::warningCount() const
{
    return diagnosticCount() - errorCount();
}

QList<int> DefinitionFileDialog::diagnosticLines() const
{
    QList<int> lines;
    for (const Diagnostic& d : m_result.diagnostics)
        lines << d.where.line;
    return lines;
}

QString DefinitionFileDialog::resultText() const
{
    const int errors = errorCount();
    const int warnings = warningCount();
    const QString warningText = warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings);
    if (errors > 0) {
        if (m_readFailed)
            return tr("The file could not be read.");
        QString text = errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors);
        if (warnings > 0)
            text += tr(" and %1").arg(warningText);
        return text + tr(": the file cannot be used until the errors are fixed.");
    }
    const mdb::MissionDatabase& db = m_result.database;
    QString text = tr("No errors: %1 packet types and %2 parameters read")
                       .arg(countText(db.packets.size()), countText(db.parameterCount()));
    if (!db.name.empty())
        text += tr(" (mission \"%1\")").arg(QString::fromStdString(db.name));
    if (warnings > 0)
        text += tr("; %1 listed above").arg(warningText);
    return text + QLatin1Char('.');
}

void DefinitionFileDialog::selectDiagnostic(int row)
{
    if (row < 0 || row >= diagnosticCount())
        return;
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    goToDiagnostic(row); // also when it was current already
}

int DefinitionFileDialog::currentLine() const
{
    return m_text->textCursor().blockNumber() + 1;
}

void DefinitionFileDialog::goToDiagnostic(int row)
{
    if (row < 0 || row >= diagnosticCount())
        return;
    highlightLines(row);
    const Diagnostic& d = diagnostic(row);
    if (d.where.line <= 0)
        return;
    const QTextBlock block = m_text->document()->findBlockByNumber(d.where.line - 1);
    if (!block.isValid())
        return;
    // Columns count bytes of the UTF-8 line; the editor counts UTF-16 units.
    int offset = 0;
    if (d.where.column > 1) {
        const QByteArray bytes = block.text().toUtf8().left(d.where.column - 1);
        offset = std::min(static_cast<int>(QString::fromUtf8(bytes).size()), block.length() - 1);
    }
    QTextCursor cursor(block);
    cursor.setPosition(block.position() + offset);
    m_text->setTextCursor(cursor);
    m_text->centerCursor();
}

// Every line with a diagnostic tinted by severity; the current diagnostic's line more strongly.
void DefinitionFileDialog::highlightLines(int currentRow)
{
    QList<QTextEdit::ExtraSelection> selections;
    const auto add = [&](const Diagnostic& d, bool current) {
        const QTextBlock block = m_text->document()->findBlockByNumber(d.where.line - 1);
        if (d.where.line <= 0 || !block.isValid())
            return;
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(block);
        const bool error = d.severity == Severity::Error;
        selection.format.setBackground(current ? (error ? kErrorLineCurrent : kWarningLineCurrent)
                                               : (error ? kErrorLine : kWarningLine));
        selection.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections << selection;
    };
    for (int row = 0; row < diagnosticCount(); ++row)
        if (row != currentRow)
            add(diagnostic(row), false);
    if (currentRow >= 0 && currentRow < diagnosticCount())
        add(diagnostic(currentRow), true); // last: drawn over the others
    m_text->setExtraSelections(selections);
}

} // namespace telestation::ui
